"""PyTorch models exported by scripts/export-torch.py: each takes a batch of
Fashion-MNIST images (B, 1, 28, 28) and returns logits (B, 10)."""
import torch
from torch import nn


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(784, 128)
        self.fc2 = nn.Linear(128, 10)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x.flatten(1))))


class CNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 8, 3, stride=2, padding=1)   # 8 x 14 x 14
        self.conv2 = nn.Conv2d(8, 16, 3, stride=2, padding=1)  # 16 x 7 x 7
        self.fc = nn.Linear(16 * 7 * 7, 10)

    def forward(self, x):
        x = torch.relu(self.conv1(x))
        x = torch.relu(self.conv2(x))
        return self.fc(x.flatten(1))


class Transformer(nn.Module):
    """Rows of the image as 28 tokens, one pre-norm encoder block with two
    attention heads, mean pooling, linear classifier."""

    def __init__(self, dim=32, heads=2):
        super().__init__()
        self.heads = heads
        self.embed = nn.Linear(28, dim)
        self.pos = nn.Parameter(torch.randn(28, dim) * 0.02)
        self.norm1 = nn.LayerNorm(dim)
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)
        self.norm2 = nn.LayerNorm(dim)
        self.mlp1 = nn.Linear(dim, 2 * dim)
        self.mlp2 = nn.Linear(2 * dim, dim)
        self.head = nn.Linear(dim, 10)

    def forward(self, x):
        b = x.shape[0]
        h = self.embed(x.reshape(b, 28, 28)) + self.pos
        q, k, v = self.qkv(self.norm1(h)).chunk(3, dim=-1)
        d = q.shape[-1] // self.heads

        def split(t):
            return t.reshape(b, 28, self.heads, d).transpose(1, 2)

        att = torch.softmax(split(q) @ split(k).transpose(-1, -2) / d ** 0.5, -1)
        out = (att @ split(v)).transpose(1, 2).reshape(b, 28, self.heads * d)
        h = h + self.proj(out)
        h = h + self.mlp2(torch.relu(self.mlp1(self.norm2(h))))
        return self.head(h.mean(1))


MODELS = {"mlp": MLP, "cnn": CNN, "transformer": Transformer}


def train_step(model, opt, x, y, i, batch, device, dtype, scaler=None):
    """One Adam step of the benchmarks: softmax cross-entropy on the i-th
    batch of (x, y) (wrapping around), under torch.autocast(device, dtype)
    when dtype is given, through the GradScaler `scaler` when given."""
    lo = (i * batch) % (x.shape[0] - batch)
    with torch.autocast(device, dtype=dtype or torch.bfloat16,
                        enabled=dtype is not None):
        loss = nn.functional.cross_entropy(model(x[lo:lo + batch]),
                                           y[lo:lo + batch])
    opt.zero_grad(set_to_none=True)
    if scaler is None:
        loss.backward()
        opt.step()
    else:
        scaler.scale(loss).backward()
        scaler.step(opt)
        scaler.update()
