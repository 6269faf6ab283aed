"""The session's seccomp filter, run on a small classic-BPF interpreter for every ABI it
knows (the aarch64 and 32-bit numbers cannot be tried on this machine)."""

from __future__ import annotations

import struct

import pytest

from hookwise.run import libc

ALLOW, EPERM, ENOSYS = 0x7FFF0000, 0x00050001, 0x00050026


def run(program: bytes, arch: int, nr: int, args: tuple[int, ...] = ()) -> int:
    words = [struct.unpack_from("HBBI", program, i) for i in range(0, len(program), 8)]
    full = list(args) + [0] * (6 - len(args))
    data = struct.pack("<iIQ6Q", nr, arch, 0, *[a & (2**64 - 1) for a in full])
    pc, acc = 0, 0
    while True:
        code, jt, jf, k = words[pc]
        if code == 0x20:
            acc = struct.unpack_from("<I", data, k)[0]
        elif code == 0x54:
            acc &= k
        elif code in (0x15, 0x35, 0x45):
            hit = acc == k if code == 0x15 else acc >= k if code == 0x35 else bool(acc & k)
            pc += jt if hit else jf
        elif code == 0x06:
            return k
        else:
            raise AssertionError(f"unknown instruction {code:#x}")
        pc += 1


@pytest.mark.parametrize("machine", sorted(libc._ARCH))
def test_each_abi_refuses_what_it_must(machine: str) -> None:
    numbers = libc._ARCH[machine]
    program = libc.filter_program(numbers, machine)
    for abi in (numbers.native, numbers.compat):
        a = abi.audit
        assert run(program, a, abi.ioctl, (0, libc.TIOCSTI)) == EPERM
        assert run(program, a, abi.ioctl, (0, 0xFFFFFFFF00000000 | libc.TIOCLINUX)) == EPERM
        assert run(program, a, abi.ioctl, (0, 0x5401)) == ALLOW  # TCGETS
        assert run(program, a, abi.ptrace, (libc.PTRACE_ATTACH, 42)) == EPERM
        assert run(program, a, abi.ptrace, (libc.PTRACE_SEIZE, 42)) == EPERM
        for request in (0, 1, 4, 7, 12, 13, 0x4200):  # TRACEME, PEEK, POKE, CONT, GET/SETREGS
            assert run(program, a, abi.ptrace, (request, 42)) == ALLOW
        assert run(program, a, abi.process_vm_writev, (42,)) == EPERM
        assert run(program, a, abi.pidfd_getfd, (3, 0, 0)) == EPERM
        assert run(program, a, abi.prlimit64, (42, 0, 0x7FFF0000)) == EPERM
        assert run(program, a, abi.prlimit64, (42, 0, 0x7F0000000000)) == EPERM
        assert run(program, a, abi.prlimit64, (42, 0, 0, 0x1000)) == ALLOW  # reading
        assert run(program, a, abi.prlimit64, (0, 0, 0x1000)) == ALLOW  # its own
        for number in abi.io_uring:  # (a ring's fixed files are in no descriptor table)
            assert run(program, a, number, (4, 0)) == EPERM
        for number in libc.SIGNAL_CALLS[machine][abi is numbers.compat]["fcntl"]:
            assert run(program, a, number, (5, libc.F_SETLEASE, 1)) == EPERM  # (F_WRLCK)
            assert run(program, a, number, (5, 1024 - 1024 + 1, 0)) == ALLOW  # F_GETFD
            assert run(program, a, number, (5, 1025, 0)) == ALLOW  # F_GETLEASE
        assert run(program, a, 0, ()) == ALLOW
    if numbers.x32:
        assert run(program, numbers.native.audit, libc.X32_BIT | 514) == ENOSYS
    assert run(program, 0x12345678, numbers.native.ptrace, (libc.PTRACE_ATTACH,)) == ALLOW
