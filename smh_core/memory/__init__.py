"""MemHome-style memory: a persistent per-user memory bank, the memory/rewrite decision
step, and the paper's metrics (token F1, BLEU-1, PRISM veto reward)."""
