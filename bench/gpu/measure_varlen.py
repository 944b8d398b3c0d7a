"""
How much more the caching allocator reserves when every step has a different sequence length, as real fine-tuning
data do, than with one fixed length (measure_mechanisms.py). Same random-initialised models and pure-bf16 / LoRA
setups as measure_mechanisms.py; lengths drawn uniformly from [lo, hi] with a fixed seed. Run by hand on a lent GPU
from the repository root:

    python3 bench/gpu/measure_varlen.py OUT_DIR 12   # -> OUT_DIR/varlen.json        (seed 0, 12 steps)
    python3 bench/gpu/measure_varlen.py OUT_DIR 40   # -> OUT_DIR/varlen2.json       (seed 1, 40 steps)

Each run records after every step [tokens, max_memory_allocated, max_memory_reserved(, memory_reserved)].
bench/gpu/results/h200-varlen.json and h200-varlen-40steps.json are these two outputs (NVIDIA H200, torch 2.11,
transformers 5.17, PEFT 0.21).
"""
import json
import os
import random
import sys

import torch

sys.path.insert(0, os.path.dirname(__file__))
from measure_mechanisms import GiB, MODELS, build, clean  # noqa: E402

OUT = sys.argv[1] if len(sys.argv) > 1 else "."
STEPS = int(sys.argv[2]) if len(sys.argv) > 2 else 12
R = []


def run(n, lo, hi, mb, gc, mode, pf=0, fused=0):
    clean()
    m = build(n)
    m.train()
    if gc:
        m.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": False})
    if mode == "lora":
        from peft import LoraConfig, get_peft_model

        m = get_peft_model(m, LoraConfig(r=8, lora_alpha=16, target_modules="all-linear", lora_dropout=0.0))
        if gc:
            m.enable_input_require_grads()
    ps = [p for p in m.parameters() if p.requires_grad]
    o = torch.optim.AdamW(ps, lr=1e-5, fused=bool(fused), foreach=None if fused else True)
    g = random.Random(0 if STEPS == 12 else 1)
    S = []
    for _ in range(STEPS):
        # padding-free: one row of mb samples concatenated, so the total varies
        sh = (1, sum(g.randint(lo, hi) for _ in range(mb))) if pf else (mb, g.randint(lo, hi))
        i = torch.randint(0, MODELS[n]["vocab_size"], sh, device="cuda")
        out = m(input_ids=i, labels=i)
        out.loss.backward()
        del out
        o.step()
        o.zero_grad(set_to_none=True)
        torch.cuda.synchronize()
        row = [sh[0] * sh[1], torch.cuda.max_memory_allocated(), torch.cuda.max_memory_reserved()]
        if STEPS != 12:
            row.append(torch.cuda.memory_reserved())
        S.append(row)
    rec = dict(model=n, lo=lo, hi=hi, mb=mb, gc=gc, mode=mode, steps=S)
    rec.update(dict(pf=pf) if STEPS == 12 else dict(fused=fused))
    R.append(rec)
    del o, m, ps
    clean()
    a, r = S[-1][1], S[-1][2]
    print(n, mode, lo, hi, mb, gc, pf, fused, round(a / GiB, 2), round(r / GiB, 2), round(r / a, 3), flush=True)
    with open(os.path.join(OUT, "varlen.json" if STEPS == 12 else "varlen2.json"), "w") as f:
        json.dump(R, f)


PLAN12 = [
    ("qwen2.5-1.5b", 4096, 4096, 1, 1, "full"), ("qwen2.5-1.5b", 512, 4096, 1, 1, "full"), ("qwen2.5-1.5b", 4096, 4096, 1, 1, "lora"),
    ("qwen2.5-1.5b", 512, 4096, 1, 1, "lora"), ("qwen2.5-1.5b", 512, 4096, 1, 0, "lora"), ("qwen2.5-1.5b", 256, 2048, 4, 1, "lora"),
    ("qwen2.5-1.5b", 256, 2048, 4, 1, "lora", 1), ("qwen2.5-7b", 8192, 8192, 1, 1, "lora"), ("qwen2.5-7b", 1024, 8192, 1, 1, "lora"),
    ("qwen2.5-0.5b", 512, 4096, 1, 0, "full"),
]
PLAN40 = [
    ("qwen2.5-1.5b", 512, 4096, 1, 1, "full"), ("qwen2.5-1.5b", 512, 4096, 1, 1, "full", 0, 1), ("qwen2.5-1.5b", 512, 4096, 1, 0, "full"),
    ("qwen2.5-0.5b", 512, 4096, 1, 1, "full"), ("llama-3.2-3b", 256, 2048, 2, 1, "full"), ("qwen2.5-7b", 256, 2048, 2, 1, "lora"),
]

if __name__ == "__main__":
    for spec in PLAN12 if STEPS == 12 else PLAN40:
        try:
            run(*spec)
        except Exception as e:  # noqa: BLE001
            print("FAIL", spec, repr(e)[:200], flush=True)
            clean()
