"""``tune``'s command line (docs/tune.md): ``command`` the command and its flags. Empty
on purpose: a command loads only the modules it runs (docs/architecture.md)."""
