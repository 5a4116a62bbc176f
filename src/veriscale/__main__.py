"""``python -m veriscale``: the same command as the ``veriscale`` script."""

from veriscale.cli.app import main

main()
