"""What a command line runs, as bash would run it: the splitter, program grammars, wrappers,
scripts and interpreters. Read by the policy matcher and by ``hookwise scan``; standard library
only, each handler loaded on first use (the hook's hot path imports this package)."""
