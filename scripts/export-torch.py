#!/usr/bin/env python3
"""Exports a PyTorch model and its loss as an mp gradient function.

The frontend of docs/Training.md: traces torch.func.vjp of the model's
softmax cross-entropy loss with make_fx (core ATen decompositions), imports
the graph with torch-mlir as linalg on tensors, and marks the signature with
the training contract (mp.param, mp.input, mp.grad_seed, mp.loss,
mp.grad_of, mp.output). Also saves, as .npy, what mp's tests compare with
(GOLDEN, by default test/Integration/Torch/Inputs/NAME):

  OUT/NAME_grad.mlir               the gradient function @NAME_grad
  OUT/init/argN.npy                initial parameters (mp-run --init OUT/init)
  GOLDEN/batch/x.npy, y.npy        the first training batch (images, one-hot)
  GOLDEN/torch/loss.npy, gradN.npy PyTorch's loss and gradients on that batch
  GOLDEN/torch/sgd_loss.npy        losses of STEPS plain SGD steps (lr LR) on
  GOLDEN/torch/sgd_argN.npy        the first STEPS batches in file order, and
                                   the parameters after them
  GOLDEN/torch/gradscaler.csv      torch.amp.GradScaler's scale and skipped
                                steps over 40 steps with inf injected into a
                                gradient at steps 5,6,20,33,34,35
                                (growth_interval 10)

Needs PyPI's torch and torch-mlir (pip install torch torch-mlir); mp's
tests use the committed files and need neither.

Usage: export-torch.py {mlp,cnn,transformer} OUT [--golden GOLDEN]
                       [--batch 64] [--seed 0] [--steps 5] [--lr 0.1]
"""
import argparse
import gzip
import os
import sys

import numpy as np
import torch
from torch._decomp import core_aten_decompositions
from torch.fx.experimental.proxy_tensor import make_fx
from torch_mlir import fx, ir

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "examples", "torch"))
from models import MODELS  # noqa: E402

INJECT = (5, 6, 20, 33, 34, 35)


def load_fashion_mnist(count):
    root = os.environ.get("MP_DATASET_DIR", "/usr/share/datasets/fashion-mnist")
    with gzip.open(os.path.join(root, "train-images-idx3-ubyte.gz")) as f:
        images = np.frombuffer(f.read(), np.uint8, offset=16)
    with gzip.open(os.path.join(root, "train-labels-idx1-ubyte.gz")) as f:
        labels = np.frombuffer(f.read(), np.uint8, offset=8)
    x = images[:count * 784].reshape(count, 1, 28, 28).astype(np.float32) / 255
    y = np.eye(10, dtype=np.float32)[labels[:count]]
    return torch.from_numpy(x), torch.from_numpy(y)


def loss_fn(logits, y):
    """Softmax cross-entropy with one-hot targets, mean over the batch."""
    return -(y * torch.log_softmax(logits, 1)).sum(1).mean()


def export(model, names, x, y, func_name):
    def grad_fn(*args):
        inputs, targets, seed = args[len(names):]

        def loss_of(*params):
            logits = torch.func.functional_call(model, dict(zip(names, params)),
                                                (inputs,))
            return loss_fn(logits, targets), logits

        loss, vjp_fn, logits = torch.func.vjp(loss_of, *args[:len(names)],
                                              has_aux=True)
        return (loss,) + tuple(vjp_fn(seed)) + (logits,)

    params = [p.detach() for p in model.parameters()]
    gm = make_fx(grad_fn, decomposition_table=core_aten_decompositions(),
                 tracing_mode="real")(*params, x, y, torch.tensor(1.0))
    module = fx.stateless_fx_import(gm, output_type="linalg-on-tensors",
                                    model_name=func_name)
    with module.context:
        unit = ir.UnitAttr.get()
        i64 = ir.IntegerType.get_signless(64)
        n = len(names)
        args = [{"mp.param": unit}] * n + [{"mp.input": unit}] * 2 + \
            [{"mp.grad_seed": unit}]
        results = [{"mp.loss": unit}] + \
            [{"mp.grad_of": ir.IntegerAttr.get(i64, i)} for i in range(n)] + \
            [{"mp.output": unit}]
        for op in module.body.operations:
            if op.operation.name == "func.func":
                op.attributes["arg_attrs"] = ir.ArrayAttr.get(
                    [ir.DictAttr.get(a) for a in args])
                op.attributes["res_attrs"] = ir.ArrayAttr.get(
                    [ir.DictAttr.get(r) for r in results])
    return module


def gradscaler_trajectory(model, x, y, steps=40, interval=10):
    """The scale and skipped flag after each step of a GradScaler run with inf
    injected into the first parameter's gradient at the INJECT steps."""
    scaler = torch.amp.GradScaler("cpu", init_scale=65536.0,
                                  growth_interval=interval)
    opt = torch.optim.SGD(model.parameters(), lr=0.0)
    first = next(model.parameters())
    rows = []
    for step in range(1, steps + 1):
        opt.zero_grad()
        scaler.scale(loss_fn(model(x), y)).backward()
        if step in INJECT:
            first.grad.view(-1)[0] = float("inf")
        scaler.unscale_(opt)
        found = sum(v.item() for v in
                    scaler._per_optimizer_states[id(opt)]["found_inf_per_device"].values())
        scaler.step(opt)
        scaler.update()
        rows.append((step, scaler.get_scale(), int(found > 0)))
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("model", choices=sorted(MODELS))
    parser.add_argument("out")
    parser.add_argument("--golden", help="where the reference data goes "
                        "(default: test/Integration/Torch/Inputs/MODEL)")
    parser.add_argument("--batch", type=int, default=64)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--steps", type=int, default=5)
    parser.add_argument("--lr", type=float, default=0.1)
    args = parser.parse_args()

    torch.manual_seed(args.seed)
    model = MODELS[args.model]()
    names = [n for n, _ in model.named_parameters()]
    xs, ys = load_fashion_mnist(args.batch * max(args.steps, 1))
    x, y = xs[:args.batch], ys[:args.batch]
    golden = args.golden or os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "test", "Integration",
        "Torch", "Inputs", args.model)
    os.makedirs(os.path.join(args.out, "init"), exist_ok=True)
    for sub in ("batch", "torch"):
        os.makedirs(os.path.join(golden, sub), exist_ok=True)

    module = export(model, names, x, y, f"{args.model}_grad")
    path = os.path.join(args.out, f"{args.model}_grad.mlir")
    with open(path, "w") as f:
        f.write(f"// {args.model}: exported by scripts/export-torch.py "
                f"(batch {args.batch}, seed {args.seed}) from "
                "examples/torch/models.py.\n// Parameters in order: "
                + ", ".join(f"#{i} {n} {tuple(p.shape)}"
                            for i, (n, p) in enumerate(model.named_parameters()))
                + "\n")
        f.write(str(module))

    for i, p in enumerate(model.parameters()):
        np.save(os.path.join(args.out, "init", f"arg{i}.npy"), p.detach().numpy())
    np.save(os.path.join(golden, "batch", "x.npy"), x.numpy())
    np.save(os.path.join(golden, "batch", "y.npy"), y.numpy())

    loss = loss_fn(model(x), y)
    grads = torch.autograd.grad(loss, list(model.parameters()))
    np.save(os.path.join(golden, "torch", "loss.npy"), loss.detach().numpy())
    for i, g in enumerate(grads):
        np.save(os.path.join(golden, "torch", f"grad{i}.npy"), g.numpy())

    # A few plain SGD steps on consecutive batches, from the same weights.
    trained = MODELS[args.model]()
    trained.load_state_dict(model.state_dict())
    opt = torch.optim.SGD(trained.parameters(), lr=args.lr)
    losses = []
    for s in range(args.steps):
        opt.zero_grad()
        step_loss = loss_fn(trained(xs[s * args.batch:(s + 1) * args.batch]),
                            ys[s * args.batch:(s + 1) * args.batch])
        step_loss.backward()
        opt.step()
        losses.append(step_loss.item())
    np.save(os.path.join(golden, "torch", "sgd_loss.npy"),
            np.array(losses, np.float32))
    for i, p in enumerate(trained.parameters()):
        np.save(os.path.join(golden, "torch", f"sgd_arg{i}.npy"),
                p.detach().numpy())

    scaled = MODELS[args.model]()
    scaled.load_state_dict(model.state_dict())
    with open(os.path.join(golden, "torch", "gradscaler.csv"), "w") as f:
        f.write("step,scale,skipped\n")
        for step, scale, skipped in gradscaler_trajectory(scaled, x, y):
            f.write(f"{step},{scale:g},{skipped}\n")
    print(f"wrote {path}, its initial parameters under {args.out} and the "
          f"reference data under {golden}")


if __name__ == "__main__":
    main()
