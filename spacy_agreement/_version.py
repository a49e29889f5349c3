"""The version of spacy-agreement: the one place it is written (``pyproject.toml`` reads it
from here, ``spacy_agreement.__version__`` and the settings signatures import it), in a module
of its own so that what needs the version need not import the package."""

__version__ = "0.3.0"
