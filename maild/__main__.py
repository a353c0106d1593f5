from maild.cli import main

raise SystemExit(main())
