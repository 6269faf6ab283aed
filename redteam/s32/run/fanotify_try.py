"""Inside a session: can a process get a fanotify group with permission events (FAN_CLASS_CONTENT,
which would hold every open of a file marked FAN_OPEN_PERM until it answers), either
directly or from a user namespace of its own? usage: python3 fanotify_try.py"""
import ctypes
import os

libc = ctypes.CDLL(None, use_errno=True)
FAN_CLASS_CONTENT, FAN_CLASS_NOTIF, FAN_REPORT_FID = 0x04, 0x00, 0x200


def attempt(label: str, flags: int) -> None:
    fd = libc.fanotify_init(flags, os.O_RDONLY)
    err = ctypes.get_errno()
    print(f"{label}: fanotify_init({flags:#x}) = {fd} ({os.strerror(err) if fd < 0 else 'granted'})")
    if fd >= 0:
        os.close(fd)


attempt("direct, permission class", FAN_CLASS_CONTENT)
attempt("direct, unprivileged notify (FID)", FAN_CLASS_NOTIF | FAN_REPORT_FID)
CLONE_NEWUSER = 0x10000000
if libc.unshare(CLONE_NEWUSER) == 0:
    attempt("in a new user namespace, permission class", FAN_CLASS_CONTENT)
else:
    print("unshare(CLONE_NEWUSER):", os.strerror(ctypes.get_errno()))
