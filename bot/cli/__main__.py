"""``python -m bot.cli`` runs the ``monopoly-bot`` command."""

from bot.cli.dispatch import main

raise SystemExit(main())
