"""Per-phase memory figures shared by the FSDP scripts: each phase reads and then resets the allocator's peaks,
so every phase (wrapping, forward, backward, optimizer step) has figures of its own."""

GiB = 2**30


def phase_peak(tag):
    """The allocator's peaks since the last call, what it holds now, and the device's used bytes (nvidia-smi's
    figure), in GiB; then the peaks are reset for the next phase."""
    import torch

    torch.cuda.synchronize()
    free, total = torch.cuda.mem_get_info()
    out = {
        "phase": tag,
        "max_allocated": torch.cuda.max_memory_allocated() / GiB,
        "max_reserved": torch.cuda.max_memory_reserved() / GiB,
        "allocated": torch.cuda.memory_allocated() / GiB,
        "reserved": torch.cuda.memory_reserved() / GiB,
        "device_used": (total - free) / GiB,
    }
    torch.cuda.reset_peak_memory_stats()
    return out


def train_steps(model, optim, ids, steps=2):
    """Forward, backward and optimizer step, each followed by phase_peak."""
    phases = []
    for step in range(steps):
        out = model(input_ids=ids, labels=ids)
        phases.append(phase_peak(f"forward{step}"))
        out.loss.backward()
        del out
        phases.append(phase_peak(f"backward{step}"))
        optim.step()
        optim.zero_grad(set_to_none=True)
        phases.append(phase_peak(f"step{step}"))
    return phases


def print_phases(phases):
    for p in phases:
        print(f"  {p['phase']:10s} max_alloc {p['max_allocated']:6.2f}  max_res {p['max_reserved']:6.2f}  alloc {p['allocated']:6.2f}  res {p['reserved']:6.2f}  used {p['device_used']:6.2f}")
