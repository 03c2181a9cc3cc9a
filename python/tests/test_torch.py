"""from_torch(): a torch.nn.MultiheadAttention of one's own, computed by the core, against the
module's own output and per-head attention weights (float64): with and without biases,
batch_first both ways, a causal mask; and the modules it cannot read, refused with why."""

import numpy as np
import pytest

import attention_by_hand as abh

torch = pytest.importorskip("torch")


def module_of(bias, batch_first, seed=3):
    torch.manual_seed(seed)
    m = torch.nn.MultiheadAttention(8, 2, bias=bias, batch_first=batch_first).double().eval()
    if bias:  # PyTorch starts its biases at 0: give them values, so that they count
        with torch.no_grad():
            m.in_proj_bias.uniform_(-1, 1)
            m.out_proj.bias.uniform_(-1, 1)
    return m


@pytest.mark.parametrize("bias", [True, False])
@pytest.mark.parametrize("batch_first", [True, False])
@pytest.mark.parametrize("causal", [False, True])
def test_the_module_and_the_core_agree(bias, batch_first, causal):
    m = module_of(bias, batch_first)
    x = torch.randn(5, 8, dtype=torch.float64)
    batched = x[None] if batch_first else x[:, None]
    mask = torch.triu(torch.ones(5, 5, dtype=torch.bool), 1) if causal else None
    out, weights = m(batched, batched, batched, attn_mask=mask, need_weights=True,
                     average_attn_weights=False)
    r = abh.from_torch(m, batched, causal=causal)
    want = out[0] if batch_first else out[:, 0]
    np.testing.assert_allclose(r.output, want.detach().numpy(), rtol=1e-12, atol=1e-12)
    for h in range(2):
        np.testing.assert_allclose(r.trace.heads[h].weights, weights[0, h].detach().numpy(),
                                   rtol=1e-12, atol=1e-12)
    # one sequence given without its batch axis reads the same
    np.testing.assert_allclose(abh.from_torch(m, x, causal=causal).output, r.output, rtol=0, atol=0)
    # the biases are each W's last row, x's last column 1
    assert np.asarray(r.trace.x).shape == (5, 9 if bias else 8)


def test_what_it_cannot_read_is_refused_with_why():
    m = module_of(True, True)
    with pytest.raises(ValueError, match=r"x holds 2 sequences \(x.shape\[0\], batch_first=True\); give one"):
        abh.from_torch(m, torch.randn(2, 5, 8, dtype=torch.float64))
    with pytest.raises(ValueError, match="x has 6 columns but the module's embed_dim is 8"):
        abh.from_torch(m, np.zeros((5, 6)))
    with pytest.raises(TypeError, match="module must be a torch.nn.MultiheadAttention"):
        abh.from_torch(torch.nn.Linear(8, 8), np.zeros((5, 8)))
    with pytest.raises(ValueError, match="add_bias_kv"):
        abh.from_torch(torch.nn.MultiheadAttention(8, 2, add_bias_kv=True), np.zeros((5, 8)))
    with pytest.raises(ValueError, match="kdim or vdim"):
        abh.from_torch(torch.nn.MultiheadAttention(8, 2, kdim=4, vdim=4), np.zeros((5, 8)))


def test_a_function_of_x_that_returns_q_k_v():
    torch.manual_seed(5)
    wq, wk, wv = (torch.randn(8, 4, dtype=torch.float64) for _ in range(3))

    def head(x):
        x = torch.as_tensor(x)
        return x @ wq, x @ wk, x @ wv

    x = torch.randn(6, 8, dtype=torch.float64)
    q, k, v = head(x)
    for causal in (False, True):
        s = q @ k.T / 2.0  # √d_k = 2
        if causal:
            s = s.masked_fill(torch.triu(torch.ones(6, 6, dtype=torch.bool), 1), float("-inf"))
        w = torch.softmax(s, dim=1)
        r = abh.from_torch(head, x, causal=causal)
        np.testing.assert_allclose(r.trace.weights, w.numpy(), rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(r.output, (w @ v).numpy(), rtol=1e-12, atol=1e-12)
    with pytest.raises(TypeError, match=r"must return \(q, k, v\), one head's, not Tensor"):
        abh.from_torch(lambda x: torch.as_tensor(x), x)
