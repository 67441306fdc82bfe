from musici.cli import program

raise SystemExit(program())
