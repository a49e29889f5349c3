"""``python -m spacy_agreement.cli``: the ``spacy-agreement`` command."""
from . import main

main()
