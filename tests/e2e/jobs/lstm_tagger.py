"""A frame-level tagger: a depthwise conv front-end, an nn.LSTM over time, a linear head per
frame. Dynamo cannot wrap the LSTM (torch's hint: torch._dynamo.config.allow_rnn) and cannot
resume after it, so the rest of forward runs eagerly. `tct explain jobs/lstm_tagger.py:make`
and `tct run -- python jobs/lstm_tagger.py` must give that break one fix, with its cost."""
import torch
import torch.nn as nn


class Tagger(nn.Module):
    def __init__(self, feats=6, hidden=12, tags=5):
        super().__init__()
        self.front = nn.Conv1d(feats, feats, 5, padding=2, groups=feats)
        self.lstm = nn.LSTM(feats, hidden, batch_first=True, bidirectional=True)
        self.head = nn.Linear(2 * hidden, tags)

    def forward(self, frames):
        h = torch.tanh(self.front(frames)).transpose(1, 2)
        h, _ = self.lstm(h)
        return self.head(h).log_softmax(-1)


def make():
    torch.manual_seed(3)
    return Tagger().eval(), (torch.randn(3, 6, 20),)


if __name__ == "__main__":
    model, (x,) = make()
    tag = torch.compile(model, backend="eager")
    with torch.no_grad():
        for _ in range(4):
            tag(x)
    print("lstm_tagger: tagged 4 clips")
