"""Talking to language models: the OpenAI-compatible client, repair of what models get wrong,
and the prompt files. Below ``agent``, ``memory`` and ``bench``: it imports none of them."""
