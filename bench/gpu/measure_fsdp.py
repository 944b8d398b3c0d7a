"""
Measures PyTorch FSDP's per-GPU memory on one CUDA GPU (world size 1), with and without CPU offload, so the FSDP
terms of docs/memory-model.md §11a can be checked against the allocator. Run by hand on a lent GPU:

    python3 bench/gpu/measure_fsdp.py OUT_DIR

A Llama-3.2-1B-shaped model is random-initialised from its config (no hub access), loaded in fp32 as accelerate
does under mixed precision, wrapped per decoder layer (FSDP1, FULL_SHARD, MixedPrecision bf16) and trained one
step with AdamW, full activation checkpointing, batch 1 x 2048 tokens. Per phase: torch's allocated and reserved
peaks and the device-level used bytes (what nvidia-smi shows). Results: OUT_DIR/fsdp.json; a table on stdout.
"""
import functools
import gc
import json
import os
import sys
import traceback

import torch
import torch.distributed as dist
from torch.distributed.fsdp import CPUOffload, FullyShardedDataParallel as FSDP, MixedPrecision, ShardingStrategy
from torch.distributed.fsdp.wrap import transformer_auto_wrap_policy
from transformers import LlamaConfig, LlamaForCausalLM
from transformers.models.llama.modeling_llama import LlamaDecoderLayer

from phases import phase_peak as peak, print_phases, train_steps

OUT = sys.argv[1] if len(sys.argv) > 1 else "."
SEQ = 2048


def config():
    return LlamaConfig(
        vocab_size=128256, hidden_size=2048, intermediate_size=8192, num_hidden_layers=16, num_attention_heads=32,
        num_key_value_heads=8, max_position_embeddings=4096, tie_word_embeddings=True, torch_dtype="float32",
    )


def run(offload, lora=False):
    gc.collect()
    torch.cuda.empty_cache()
    base = peak("baseline")["device_used"]
    with torch.device("cpu"):
        model = LlamaForCausalLM(config()).float()
    model.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": False})
    model.config.use_cache = False
    if lora:
        from peft import LoraConfig, get_peft_model
        model = get_peft_model(model, LoraConfig(r=16, target_modules="all-linear"))
    wrapped = FSDP(
        model,
        sharding_strategy=ShardingStrategy.FULL_SHARD,
        auto_wrap_policy=functools.partial(transformer_auto_wrap_policy, transformer_layer_cls={LlamaDecoderLayer}),
        mixed_precision=MixedPrecision(param_dtype=torch.bfloat16, reduce_dtype=torch.bfloat16, buffer_dtype=torch.bfloat16),
        cpu_offload=CPUOffload(offload_params=offload),
        device_id=None if offload else torch.cuda.current_device(),
        use_orig_params=lora,
        limit_all_gathers=True,
    )
    phases = [peak("wrapped")]
    optim = torch.optim.AdamW([p for p in wrapped.parameters() if p.requires_grad], lr=1e-5)
    ids = torch.randint(0, 128256, (1, SEQ), device="cuda")
    phases += train_steps(wrapped, optim, ids)
    result = {"offload": offload, "lora": lora, "baseline_device_used": base, "phases": phases}
    del wrapped, model, optim
    return result


def main():
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", "29511")
    dist.init_process_group("nccl", rank=0, world_size=1)
    torch.cuda.set_device(0)
    results = {"torch": torch.__version__, "device": torch.cuda.get_device_name(0), "runs": [], "errors": []}
    for offload, lora in [(False, False), (True, False), (False, True), (True, True)]:
        try:
            results["runs"].append(run(offload, lora))
        except Exception:
            results["errors"].append({"offload": offload, "lora": lora, "error": traceback.format_exc()})
    os.makedirs(OUT, exist_ok=True)
    with open(os.path.join(OUT, "fsdp.json"), "w") as f:
        json.dump(results, f, indent=1)
    for r in results["runs"]:
        print(f"offload={r['offload']} lora={r['lora']} base={r['baseline_device_used']:.2f}")
        print_phases(r["phases"])
    for e in results["errors"]:
        print("ERROR", e["offload"], e["lora"], e["error"][-800:])
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
