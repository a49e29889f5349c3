"""``python -m spacy_agreement.cli``: the ``spacy-agreement`` command."""
if __name__ == "__main__":
    from . import main

    main()
