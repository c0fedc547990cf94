"""The reports of the package: what ``aces odds``, ``aces simulate`` and
``aces stats`` print, in words in the reader's language or as JSON, made
from the numbers of the layers below; the command line, the API and the
notebook show the same ones.
"""

__all__: list[str] = []
