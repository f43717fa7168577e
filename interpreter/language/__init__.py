"""The effect language: parse (``parser``), check and compile (``compiler``) to Python callables."""
