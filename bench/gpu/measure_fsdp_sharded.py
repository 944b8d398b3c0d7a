"""
Measures PyTorch FSDP1 FULL_SHARD, with and without CPU offload, at a world size above one on ONE CUDA GPU.

FSDP1 switches to NO_SHARD when the world size is 1 (torch/distributed/fsdp/_init_utils.py), and NCCL refuses two
ranks on one device, so this runs rank 0 of a larger world over PyTorch's fake process group
(torch.testing._internal.distributed.fake_pg): every collective allocates its output as the real one does but moves
no data. The memory is real; the numbers trained are not, and do not need to be.

The setup follows Answer.AI's fsdp_qlora train.py with --train_type lora (the calibration runs
aai-llama2-7b-lora-*): Llama-2-7B's shapes (here with fewer layers, so a case runs in seconds), pure bf16 (no
mixed-precision policy), PEFT LoRA r64 on q/k/v/o/gate/up/down, the LoRA layers wrapped as their own FSDP units
beside the decoder layers, use_orig_params=False, limit_all_gathers, activation checkpointing per decoder layer,
AdamW over the flat parameters. Each case runs in its own process, so no case sees another's cached blocks.

    python3 bench/gpu/measure_fsdp_sharded.py OUT_DIR

Results: OUT_DIR/fsdp-sharded.json; a table on stdout.
"""
import functools
import json
import os
import subprocess
import sys
import traceback

from phases import GiB, phase_peak as peak, print_phases, train_steps

LAYERS = 8
SEQ = 2048
CASES = [
    # (world size, CPU offload, micro batch); ZL_FSDP_CASES="2,1,4;2,0,4" picks some
    (2, False, 4),
    (2, True, 4),
    (2, True, 1),
    (8, True, 4),
]
if os.environ.get("ZL_FSDP_CASES"):
    CASES = [(int(w), o == "1", int(b)) for w, o, b in (c.split(",") for c in os.environ["ZL_FSDP_CASES"].split(";"))]


def model_config():
    from transformers import LlamaConfig

    return LlamaConfig(
        vocab_size=32000, hidden_size=4096, intermediate_size=11008, num_hidden_layers=LAYERS, num_attention_heads=32,
        num_key_value_heads=32, max_position_embeddings=4096, tie_word_embeddings=False, torch_dtype="bfloat16",
        attn_implementation="sdpa",
    )


def run_case(world, offload, batch):
    import torch
    import torch.distributed as dist
    from torch.testing._internal.distributed.fake_pg import FakeStore  # registers the "fake" backend
    from torch.distributed.algorithms._checkpoint.checkpoint_wrapper import (
        CheckpointImpl, apply_activation_checkpointing, checkpoint_wrapper)
    from torch.distributed.fsdp import CPUOffload, FullyShardedDataParallel as FSDP, ShardingStrategy
    from torch.distributed.fsdp.wrap import _or_policy, lambda_auto_wrap_policy, transformer_auto_wrap_policy
    from transformers import LlamaForCausalLM
    from transformers.models.llama.modeling_llama import LlamaDecoderLayer
    from peft import LoraConfig, get_peft_model

    dist.init_process_group("fake", rank=0, world_size=world, store=FakeStore())
    torch.cuda.set_device(0)

    torch.cuda.init()
    base = peak("baseline")
    torch.set_default_dtype(torch.bfloat16)
    with torch.device("cpu"):
        model = LlamaForCausalLM(model_config())
    model.config.use_cache = False
    model = get_peft_model(model, LoraConfig(r=64, lora_alpha=16, lora_dropout=0.0,
                                             target_modules=["q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"]))
    torch.set_default_dtype(torch.float32)

    def lora_module(module):
        # Answer.AI's policy: modules whose own weights train (the LoRA A/B linears) become units of their own.
        params = list(module.parameters(recurse=False))
        return len(list(module.named_children())) == 0 and len(params) > 0 and all(p.requires_grad for p in params)

    policy = functools.partial(_or_policy, policies=[
        functools.partial(lambda_auto_wrap_policy, lambda_fn=lora_module),
        functools.partial(transformer_auto_wrap_policy, transformer_layer_cls={LlamaDecoderLayer}),
    ])
    wrapped = FSDP(
        model,
        sharding_strategy=ShardingStrategy.FULL_SHARD,
        auto_wrap_policy=policy,
        cpu_offload=CPUOffload(offload_params=offload),
        device_id=torch.cuda.current_device(),
        use_orig_params=False,
        limit_all_gathers=True,
        sync_module_states=False,
    )
    apply_activation_checkpointing(
        wrapped,
        checkpoint_wrapper_fn=functools.partial(checkpoint_wrapper, checkpoint_impl=CheckpointImpl.NO_REENTRANT),
        check_fn=lambda m: isinstance(m, LlamaDecoderLayer),
    )
    phases = [peak("wrapped")]
    optim = torch.optim.AdamW(wrapped.parameters(), lr=1e-5, weight_decay=0.0)
    ids = torch.randint(0, 32000, (batch, SEQ), device="cuda")
    phases += train_steps(wrapped, optim, ids)
    trainable = sum(p.numel() for p in model.parameters() if p.requires_grad)
    # Where the reserved pool sits after two steps: the caching allocator keeps one pool per stream, and a block
    # cached for one stream never serves another.
    pools = {}
    for seg in torch.cuda.memory_snapshot():
        pool = pools.setdefault(str(seg["stream"]), {"segments": 0, "reserved": 0.0, "allocated": 0.0, "largest_segment": 0.0})
        pool["segments"] += 1
        pool["reserved"] += seg["total_size"] / GiB
        pool["allocated"] += seg["allocated_size"] / GiB
        pool["largest_segment"] = max(pool["largest_segment"], seg["total_size"] / GiB)
    stats = torch.cuda.memory_stats()
    return {"pools_after_step1": pools, "alloc_retries": stats.get("num_alloc_retries", 0),
            "oversize_segments": stats.get("oversize_segments.all.peak", 0),
            "world": world, "offload": offload, "batch": batch, "layers": LAYERS, "seq": SEQ, "trainable_numel_rank0": trainable,
            "torch": torch.__version__, "device": torch.cuda.get_device_name(0), "baseline": base, "phases": phases}


def main():
    if len(sys.argv) > 2 and sys.argv[1] == "--case":
        world, offload, batch = int(sys.argv[2]), sys.argv[3] == "1", int(sys.argv[4])
        try:
            print("RESULT " + json.dumps(run_case(world, offload, batch)), flush=True)
        except Exception:
            print("ERROR " + json.dumps(traceback.format_exc()[-3000:]), flush=True)
        return
    out_dir = sys.argv[1] if len(sys.argv) > 1 else "."
    results = {"runs": [], "errors": []}
    for world, offload, batch in CASES:
        args = [sys.executable, __file__, "--case", str(world), "1" if offload else "0", str(batch)]
        try:
            proc = subprocess.run(args, capture_output=True, text=True, timeout=150)
            lines = proc.stdout.splitlines()
            got = [l for l in lines if l.startswith("RESULT ")]
            if got:
                results["runs"].append(json.loads(got[-1][7:]))
            else:
                err = [l for l in lines if l.startswith("ERROR ")]
                results["errors"].append({"case": [world, offload, batch], "error": json.loads(err[-1][6:]) if err else proc.stderr[-3000:]})
        except subprocess.TimeoutExpired:
            results["errors"].append({"case": [world, offload, batch], "error": "timeout"})
        os.makedirs(out_dir, exist_ok=True)
        with open(os.path.join(out_dir, "fsdp-sharded.json"), "w") as f:
            json.dump(results, f, indent=1)
    for r in results["runs"]:
        print(f"world={r['world']} offload={r['offload']} batch={r['batch']} base_used={r['baseline']['device_used']:.2f}")
        print_phases(r["phases"])
        for stream, pool in r.get("pools_after_step1", {}).items():
            print(f"  pool stream {stream}: reserved {pool['reserved']:.2f} allocated {pool['allocated']:.2f} segments {pool['segments']} largest {pool['largest_segment']:.2f}")
    for e in results["errors"]:
        print("ERROR", e["case"], str(e["error"])[-1500:])


if __name__ == "__main__":
    main()
