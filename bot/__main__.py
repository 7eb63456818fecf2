"""``python -m bot`` runs the ``monopoly-bot`` command."""

from bot.cli import main

raise SystemExit(main())
