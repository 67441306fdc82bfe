from musici.cli import main

raise SystemExit(main())
