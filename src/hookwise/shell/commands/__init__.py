"""What particular commands do beyond the program they run, one kind a module, each imported
only for the commands that need it (the hook's shell path loads none of them for ``git
status``, ``ls -la``, ``npm test`` or ``pytest -x``: tests/policy/test_cold_shell.py).

They were in ``programs.py``, which every shell event loads: ``git_refs`` (git commands
that rewrite refs elsewhere, configure a forced push or define aliases), ``env_files``
(environment files a command loads, values it prints), ``includes`` (files a program's
data includes), ``tree_deletes`` (trees deleted without ``-r``). Standard library only.
"""
