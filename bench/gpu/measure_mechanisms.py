"""
Measures, on one CUDA GPU, the memory mechanisms ZeRO Lens's estimator models (docs/memory-model.md), so that
each term can be checked against a real allocator instead of a formula alone. Run by hand on a lent GPU:

    python3 bench/gpu/measure_mechanisms.py OUT_DIR

No DeepSpeed (it is not installed there): models are random-initialised from config dicts (no hub access), and
what DeepSpeed adds is emulated where its code is plain PyTorch (a flat fp32 master partition stepped by
torch.optim.AdamW). Every run records, per phase of a training step, torch's allocated and reserved bytes and the
device-level used bytes (cudaMemGetInfo, what nvidia-smi shows), so allocated vs reserved vs nvidia-smi are all
there. Results: OUT_DIR/mechanisms.json; a table on stdout.
"""
import gc
import json
import os
import subprocess
import sys
import time
import traceback

import torch

GiB = 2**30
OUT = sys.argv[1] if len(sys.argv) > 1 else "."
results = {"env": {}, "context": {}, "nccl": {}, "runs": [], "adam_transient": [], "errors": []}


def device_used():
    free, total = torch.cuda.mem_get_info()
    return total - free


def snap():
    torch.cuda.synchronize()
    return {
        "allocated": torch.cuda.memory_allocated(),
        "reserved": torch.cuda.memory_reserved(),
        "device_used": device_used(),
    }


def peak():
    torch.cuda.synchronize()
    return {"max_allocated": torch.cuda.max_memory_allocated(), "max_reserved": torch.cuda.max_memory_reserved(), "device_used": device_used()}


def reset_peak():
    torch.cuda.synchronize()
    torch.cuda.reset_peak_memory_stats()


def clean():
    gc.collect()
    torch.cuda.synchronize()
    torch.cuda.empty_cache()
    torch.cuda.reset_peak_memory_stats()


# --- environment and the CUDA context ------------------------------------------------------------------
def measure_context():
    torch.cuda.init()
    free0, total = torch.cuda.mem_get_info()
    results["env"] = {
        "torch": torch.__version__,
        "gpu": torch.cuda.get_device_name(0),
        "total_bytes": total,
        "alloc_conf": os.environ.get("PYTORCH_CUDA_ALLOC_CONF", ""),
    }
    after_init = device_used()
    x = torch.ones(1, device="cuda")
    after_first_tensor = device_used()
    a = torch.randn(1024, 1024, device="cuda", dtype=torch.bfloat16)
    (a @ a).sum().item()
    after_cublas = device_used()
    s = snap()
    results["context"] = {
        "after_init": after_init,
        "after_first_tensor": after_first_tensor,
        "after_cublas_matmul": after_cublas,
        "torch_reserved": s["reserved"],
        "context_bytes": after_cublas - s["reserved"],
    }
    del x, a
    clean()


def measure_nccl():
    try:
        import torch.distributed as dist

        os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
        os.environ.setdefault("MASTER_PORT", "29511")
        before = device_used()
        reserved_before = torch.cuda.memory_reserved()
        dist.init_process_group("nccl", rank=0, world_size=1, device_id=torch.device("cuda:0"))
        t = torch.ones(1 << 20, device="cuda")
        dist.all_reduce(t)
        torch.cuda.synchronize()
        after = device_used()
        results["nccl"] = {
            "device_used_delta": after - before,
            "torch_reserved_delta": torch.cuda.memory_reserved() - reserved_before,
            "outside_torch": (after - before) - (torch.cuda.memory_reserved() - reserved_before),
            "note": "world size 1: NCCL's own buffers (outside the torch allocator) for one communicator",
        }
        dist.destroy_process_group()
        del t
        clean()
    except Exception as e:  # noqa: BLE001
        results["nccl"] = {"error": repr(e)}


# --- models --------------------------------------------------------------------------------------------
# Shapes from each model's published config.json (the same facts as ZeRO Lens's catalog).
MODELS = {
    "qwen2.5-0.5b": dict(model_type="qwen2", vocab_size=151936, hidden_size=896, intermediate_size=4864, num_hidden_layers=24, num_attention_heads=14, num_key_value_heads=2, tie_word_embeddings=True),
    "qwen2.5-1.5b": dict(model_type="qwen2", vocab_size=151936, hidden_size=1536, intermediate_size=8960, num_hidden_layers=28, num_attention_heads=12, num_key_value_heads=2, tie_word_embeddings=True),
    "llama-3.2-3b": dict(model_type="llama", vocab_size=128256, hidden_size=3072, intermediate_size=8192, num_hidden_layers=28, num_attention_heads=24, num_key_value_heads=8, head_dim=128, tie_word_embeddings=True),
    "qwen2.5-7b": dict(model_type="qwen2", vocab_size=152064, hidden_size=3584, intermediate_size=18944, num_hidden_layers=28, num_attention_heads=28, num_key_value_heads=4, tie_word_embeddings=False),
}


def build(name, attn="sdpa"):
    from transformers import AutoConfig, AutoModelForCausalLM

    spec = dict(MODELS[name])
    model_type = spec.pop("model_type")
    config = AutoConfig.for_model(model_type, **spec, max_position_embeddings=32768, use_cache=False)
    config._attn_implementation = attn
    with torch.device("cuda"):
        try:
            model = AutoModelForCausalLM.from_config(config, dtype=torch.bfloat16, attn_implementation=attn)
        except TypeError:
            model = AutoModelForCausalLM.from_config(config, torch_dtype=torch.bfloat16, attn_implementation=attn)
    return model


def count(params):
    return sum(p.numel() for p in params)


def train_run(name, *, seq, mb, gc_on, mode, attn="sdpa", lora_rank=8, steps=2, fused=False):
    """One run: build, (LoRA), optimizer, `steps` steps; per-phase snapshots of the last step and of step 1."""
    rec = {"model": name, "seq": seq, "mb": mb, "gc": gc_on, "mode": mode, "attn": attn, "fused_adam": fused}
    t0 = time.time()
    clean()
    base = snap()
    model = build(name, attn)
    model.train()
    if gc_on:
        model.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": False})
    if mode == "lora":
        from peft import LoraConfig, get_peft_model

        model = get_peft_model(model, LoraConfig(r=lora_rank, lora_alpha=2 * lora_rank, target_modules="all-linear", lora_dropout=0.0))
        if gc_on:
            model.enable_input_require_grads()
    params = [p for p in model.parameters() if p.requires_grad]
    rec["total_params"] = count(model.parameters())
    rec["trainable_params"] = count(params)
    rec["after_load"] = snap()
    if mode == "mixed":
        # DeepSpeed's bf16 optimizer without ZeRO sharding (world size 1): an fp32 flat master of the trainable
        # weights, fp32 gradients copied from the bf16 ones at the step, torch AdamW on the flat master.
        master = torch.cat([p.detach().float().flatten() for p in params]).requires_grad_(True)
        opt = torch.optim.AdamW([master], lr=1e-5, fused=fused, foreach=None if fused else True)
    else:
        opt = torch.optim.AdamW(params, lr=1e-5, fused=fused, foreach=None if fused else True)
    rec["after_optimizer"] = snap()
    steps_out = []
    V = model.config.vocab_size if hasattr(model, "config") else MODELS[name]["vocab_size"]
    for step in range(steps):
        ids = torch.randint(0, V, (mb, seq), device="cuda")
        ph = {}
        reset_peak()
        ph["before_forward"] = snap()
        out = model(input_ids=ids, labels=ids)
        ph["forward_peak"] = peak()
        ph["after_forward"] = snap()
        reset_peak()
        out.loss.backward()
        ph["backward_peak"] = peak()
        del out
        ph["after_backward"] = snap()
        reset_peak()
        if mode == "mixed":
            offset = 0
            grad = torch.empty_like(master)
            for p in params:
                n = p.numel()
                grad[offset : offset + n].copy_(p.grad.flatten())
                offset += n
            master.grad = grad
            for p in params:
                p.grad = None
            opt.step()
            master.grad = None
            del grad
            offset = 0
            with torch.no_grad():
                for p in params:
                    n = p.numel()
                    p.copy_(master[offset : offset + n].view_as(p))
                    offset += n
        else:
            opt.step()
        ph["step_peak"] = peak()
        opt.zero_grad(set_to_none=True)
        ph["after_step"] = snap()
        steps_out.append(ph)
    rec["steps"] = steps_out
    rec["seconds"] = round(time.time() - t0, 1)
    rec["baseline"] = base
    del opt, model, params
    if mode == "mixed":
        del master
    clean()
    return rec


def adam_transient(n_elems, fused):
    """Extra memory an AdamW step takes over its parameter, gradient and two states, on one flat fp32 tensor."""
    clean()
    p = torch.zeros(n_elems, device="cuda", requires_grad=True)
    p.grad = torch.randn(n_elems, device="cuda")
    opt = torch.optim.AdamW([p], lr=1e-4, fused=fused, foreach=None if fused else True)
    opt.step()  # creates the states
    torch.cuda.synchronize()
    before = torch.cuda.memory_allocated()
    reset_peak()
    opt.step()
    torch.cuda.synchronize()
    extra = torch.cuda.max_memory_allocated() - before
    rec = {"elements": n_elems, "fused": fused, "static_bytes": before, "step_extra_bytes": extra, "extra_per_element": extra / n_elems}
    del opt, p
    clean()
    return rec


PLAN = [
    # activations per token and checkpointing, full fine-tuning in pure bf16
    dict(name="qwen2.5-0.5b", seq=1024, mb=1, gc_on=False, mode="full"),
    dict(name="qwen2.5-0.5b", seq=4096, mb=1, gc_on=False, mode="full"),
    dict(name="qwen2.5-0.5b", seq=4096, mb=1, gc_on=True, mode="full"),
    dict(name="qwen2.5-0.5b", seq=4096, mb=4, gc_on=True, mode="full"),
    dict(name="qwen2.5-0.5b", seq=2048, mb=1, gc_on=False, mode="full", attn="eager"),
    dict(name="qwen2.5-1.5b", seq=4096, mb=1, gc_on=False, mode="full"),
    dict(name="qwen2.5-1.5b", seq=4096, mb=1, gc_on=True, mode="full"),
    dict(name="qwen2.5-1.5b", seq=8192, mb=1, gc_on=True, mode="full"),
    dict(name="qwen2.5-1.5b", seq=4096, mb=1, gc_on=True, mode="full", fused=True),
    dict(name="llama-3.2-3b", seq=4096, mb=1, gc_on=True, mode="full"),
    dict(name="llama-3.2-3b", seq=2048, mb=2, gc_on=False, mode="full"),
    # DeepSpeed-style mixed precision: fp32 master, states and gradient copy
    dict(name="qwen2.5-0.5b", seq=2048, mb=1, gc_on=True, mode="mixed"),
    dict(name="qwen2.5-1.5b", seq=2048, mb=1, gc_on=True, mode="mixed"),
    dict(name="qwen2.5-1.5b", seq=2048, mb=1, gc_on=True, mode="mixed", fused=True),
    dict(name="llama-3.2-3b", seq=2048, mb=1, gc_on=True, mode="mixed"),
    # LoRA: frozen bf16 base
    dict(name="qwen2.5-1.5b", seq=4096, mb=1, gc_on=True, mode="lora"),
    dict(name="qwen2.5-1.5b", seq=4096, mb=1, gc_on=False, mode="lora"),
    dict(name="llama-3.2-3b", seq=4096, mb=2, gc_on=True, mode="lora"),
    dict(name="qwen2.5-7b", seq=4096, mb=1, gc_on=True, mode="lora"),
    dict(name="qwen2.5-7b", seq=8192, mb=1, gc_on=True, mode="lora"),
    dict(name="qwen2.5-7b", seq=2048, mb=4, gc_on=False, mode="lora"),
    dict(name="qwen2.5-7b", seq=1024, mb=1, gc_on=True, mode="full"),
]


def main():
    measure_context()
    measure_nccl()
    for n in (1 << 24, 1 << 27):
        for fused in (False, True):
            try:
                results["adam_transient"].append(adam_transient(n, fused))
            except Exception as e:  # noqa: BLE001
                results["errors"].append({"adam": n, "fused": fused, "error": repr(e)})
    only = os.environ.get("ZL_ONLY")
    for i, run in enumerate(PLAN):
        if only and str(i) not in only.split(","):
            continue
        kwargs = dict(run)
        name = kwargs.pop("name")
        try:
            rec = train_run(name, **kwargs)
            rec["index"] = i
            results["runs"].append(rec)
            last = rec["steps"][-1]
            peak_alloc = max(last["forward_peak"]["max_allocated"], last["backward_peak"]["max_allocated"], last["step_peak"]["max_allocated"])
            peak_res = max(last["forward_peak"]["max_reserved"], last["backward_peak"]["max_reserved"], last["step_peak"]["max_reserved"])
            print(f"{i:2d} {name:14s} {kwargs['mode']:5s} seq={kwargs['seq']:5d} mb={kwargs['mb']} gc={int(kwargs['gc_on'])} {kwargs.get('attn','sdpa'):5s} "
                  f"alloc {peak_alloc / GiB:6.2f}  reserved {peak_res / GiB:6.2f}  device {last['step_peak']['device_used'] / GiB:6.2f} GiB  {rec['seconds']}s", flush=True)
        except Exception as e:  # noqa: BLE001
            results["errors"].append({"run": i, "error": repr(e), "trace": traceback.format_exc()[-1500:]})
            print(f"{i:2d} {name} FAILED {e!r}"[:300], flush=True)
            clean()
        with open(os.path.join(OUT, "mechanisms.json"), "w") as f:
            json.dump(results, f, indent=1)
    print("context", {k: round(v / GiB, 3) for k, v in results["context"].items()}, flush=True)
    print("nccl", results["nccl"], flush=True)
    for a in results["adam_transient"]:
        print("adam", a, flush=True)


if __name__ == "__main__":
    if os.environ.get("ZL_CHILD") is None and len(sys.argv) > 2 and sys.argv[2] == "--with-expandable":
        # The same plan's first runs under expandable segments, in a child process (the setting is read at init).
        main()
        env = dict(os.environ, ZL_CHILD="1", PYTORCH_CUDA_ALLOC_CONF="expandable_segments:True", ZL_ONLY="1,2,6,13,16,19")
        os.makedirs(os.path.join(OUT, "expandable"), exist_ok=True)
        subprocess.run([sys.executable, __file__, os.path.join(OUT, "expandable")], env=env, check=False)
    else:
        main()
