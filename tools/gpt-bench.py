# gpt-bench.py: the real model's training step in PyTorch, float32, one thread, for `make bench`
# (tools/gpt-bench.mjs), beside the core's (tools/gpt-bench.cpp): the same shapes, random
# tokens, forward, backward and AdamW. Debian's PyTorch uses a reference BLAS, so this is a
# figure to stand beside ours, not a fair race. Prints JSON: the step's median time and tokens
# per second.
#
#   python3 tools/gpt-bench.py VOCAB CONTEXT D_MODEL LAYERS HEADS BATCH
import json
import math
import sys
import time

import torch

torch.set_num_threads(1)
torch.manual_seed(1)
V, T, C, L, H, B = (int(x) for x in sys.argv[1:7])
d = C // H


def param(*shape, std=0.02):
    return (torch.randn(*shape) * std).requires_grad_()


def ones(n):
    return torch.ones(n).requires_grad_()


def zeros(n):
    return torch.zeros(n).requires_grad_()


wte = param(V, C)
layers = [
    dict(
        ln1_g=ones(C), ln1_b=zeros(C), w_q=param(C, C), w_k=param(C, C), w_v=param(C, C),
        w_o=param(C, C), ln2_g=ones(C), ln2_b=zeros(C), w_fc=param(C, 4 * C), b_fc=zeros(4 * C),
        w_proj=param(4 * C, C), b_proj=zeros(C),
    )
    for _ in range(L)
]
lnf_g, lnf_b = ones(C), zeros(C)
params = [wte, lnf_g, lnf_b] + [p for layer in layers for p in layer.values()]
adam = torch.optim.AdamW(params, lr=3e-3, betas=(0.9, 0.95), eps=1e-8, weight_decay=0.1)

i = torch.arange(d // 2, dtype=torch.float32)
angle = torch.arange(T, dtype=torch.float32)[:, None] * 10000.0 ** (-2 * i / d)  # (T, d/2)
cos, sin = torch.cos(angle), torch.sin(angle)
causal = torch.tril(torch.ones(T, T, dtype=torch.bool))


def layer_norm(x, g, b):
    mean = x.mean(dim=-1, keepdim=True)
    variance = ((x - mean) ** 2).mean(dim=-1, keepdim=True)
    return (x - mean) / torch.sqrt(variance + 1e-5) * g + b


def rope(x):  # (B, H, T, d)
    a, b = x[..., 0::2], x[..., 1::2]
    return torch.stack((a * cos - b * sin, a * sin + b * cos), dim=-1).flatten(-2)


def gelu(u):
    return 0.5 * u * (1 + torch.tanh(math.sqrt(2 / math.pi) * (u + 0.044715 * u**3)))


def step(tokens, targets):
    x = wte[tokens]  # (B, T, C)
    for p in layers:
        h = layer_norm(x, p["ln1_g"], p["ln1_b"])
        heads = lambda m: (h @ m).view(B, T, H, d).transpose(1, 2)  # (B, H, T, d)
        q, k, v = rope(heads(p["w_q"])), rope(heads(p["w_k"])), heads(p["w_v"])
        scores = (q @ k.transpose(-1, -2) / math.sqrt(d)).masked_fill(~causal, float("-inf"))
        out = (torch.softmax(scores, dim=-1) @ v).transpose(1, 2).reshape(B, T, C)
        x = x + out @ p["w_o"]
        h2 = layer_norm(x, p["ln2_g"], p["ln2_b"])
        x = x + gelu(h2 @ p["w_fc"] + p["b_fc"]) @ p["w_proj"] + p["b_proj"]
    logits = layer_norm(x, lnf_g, lnf_b) @ wte.T  # (B, T, V)
    loss = torch.nn.functional.cross_entropy(logits.view(-1, V), targets.view(-1))
    adam.zero_grad()
    loss.backward()
    adam.step()
    return loss.item()


times = []
for s in range(13):
    tokens = torch.randint(0, V, (B, T))
    targets = torch.randint(0, V, (B, T))
    start = time.perf_counter()
    step(tokens, targets)
    if s >= 3:
        times.append(time.perf_counter() - start)
median = sorted(times)[len(times) // 2]
print(json.dumps({"stepMs": median * 1e3, "tokensPerSecond": B * T / median,
                  "torch": torch.__version__}))
