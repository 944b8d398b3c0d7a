"""The measured training steps shared by the GPU scripts: forward, backward and optimizer step, each followed by
the caller's peak() (which reads and resets the allocator's peaks), so every phase has figures of its own."""


def train_steps(model, optim, ids, peak, steps=2):
    phases = []
    for step in range(steps):
        out = model(input_ids=ids, labels=ids)
        phases.append(peak(f"forward{step}"))
        out.loss.backward()
        del out
        phases.append(peak(f"backward{step}"))
        optim.step()
        optim.zero_grad(set_to_none=True)
        phases.append(peak(f"step{step}"))
    return phases
