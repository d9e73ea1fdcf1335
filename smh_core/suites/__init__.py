"""Generated task suites. Every generator takes a seed (same seed, same bytes) and validates
each task as it makes it: the reference solution passes the verifier and doing nothing fails
(except where doing nothing is the correct behaviour)."""
