"""``python -m spacy_agreement``: the ``spacy-agreement`` command (the same as the console script)."""
if __name__ == "__main__":
    from .cli import main

    main()
