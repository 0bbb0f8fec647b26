// What the model knows of an image's file system when a container starts: whether the command it names exists.
// runc's init looks the command up (exec.LookPath: along $PATH for a bare name, a stat for a path); when it is not
// there, the container never runs: containerd's StartContainer fails, the container is left exited with code 128 and
// reason StartError, and the kubelet reports RunContainerError, then backs off as for a crash.
// The model knows one image's file system: busybox (1.37, as docker-library builds it: `make defconfig` with
// CONFIG_AR and CONFIG_INOTIFYD, every applet linked into /bin by `busybox --install /bin`, Debian's getconf in /bin,
// and /usr/bin/env linking to /bin/env). Any other image runs whatever it is told to (an unknown program is a server).
// And one program's use of memory: stress (the Kubernetes docs' memory example, image polinux/stress) allocates what
// its --vm and --vm-bytes say; beyond the container's memory limit, the cgroup's OOM killer kills the container.
// Loaded only when a pod names a command or args (components/player/replay.ts).
// upstream: opencontainers/runc libcontainer/standard_init_linux.go (exec.LookPath in runc init), go/src/os/exec
//           (Error: `exec: "name": ...`); containerd internal/cri/server/container_start.go ("failed to create
//           containerd task"); docker-library/busybox Dockerfile.builder; busybox's applets (`//applet:` lines whose
//           config defaults to y); stress 1.0.4 (stress.c: its options, atoll_b, its info lines); the kernel's
//           memory.oom.group, which the kubelet sets on cgroup v2 (singleProcessOOMKill false)

import type { ContainerConfig } from './cri.ts';
// types only, and the quantities (a module the resize support shares): a value imported from the engine's first load
// would split it into more files
import type { Program } from './process.ts';
import { intValue } from '../api/quantity.ts';

const APPLETS = new Set((
  '[ [[ acpid add-shell addgroup adduser adjtimex ar arch arp arping ascii ash awk base32 base64 basename bc '+
  'beep blkdiscard blkid blockdev bootchartd brctl bunzip2 busybox bzcat bzip2 cal cat chat chattr chgrp chmod '+
  'chown chpasswd chpst chroot chrt chvt cksum clear cmp comm conspy cp cpio crc32 crond crontab cryptpw '+
  'cttyhack cut date dc dd deallocvt delgroup deluser depmod devmem df dhcprelay diff dirname dmesg dnsd '+
  'dnsdomainname dos2unix dpkg dpkg-deb du dumpkmap dumpleases echo ed egrep eject env envdir envuidgid '+
  'ether-wake expand expr factor fakeidentd fallocate false fatattr fbset fbsplash fdflush fdformat fdisk '+
  'fgconsole fgrep find findfs flock fold free freeramdisk fsck fsck.minix fsfreeze fstrim fsync ftpd ftpget '+
  'ftpput fuser getconf getfattr getopt getty grep groups gunzip gzip halt hd hdparm head hexdump hexedit '+
  'hostid hostname httpd hush hwclock i2cdetect i2cdump i2cget i2cset i2ctransfer id ifconfig ifdown ifenslave '+
  'ifplugd ifup inetd init inotifyd insmod install ionice iostat ip ipaddr ipcalc ipcrm ipcs iplink ipneigh '+
  'iproute iprule iptunnel kbd_mode kill killall killall5 klogd last less link linux32 linux64 linuxrc ln '+
  'loadfont loadkmap logger login logname logread losetup lpd lpq lpr ls lsattr lsmod lsof lspci lsscsi lsusb '+
  'lzcat lzma lzop makedevs makemime man md5sum mdev mesg microcom mim mkdir mkdosfs mke2fs mkfifo mkfs.ext2 '+
  'mkfs.minix mkfs.vfat mknod mkpasswd mkswap mktemp modinfo modprobe more mount mountpoint mpstat mt mv nameif '+
  'nanddump nandwrite nbd-client nc netstat nice nl nmeter nohup nologin nproc nsenter nslookup ntpd od openvt '+
  'partprobe passwd paste patch pgrep pidof ping ping6 pipe_progress pivot_root pkill pmap popmaildir poweroff '+
  'powertop printenv printf ps pscan pstree pwd pwdx raidautorun rdate rdev readahead readlink readprofile '+
  'realpath reboot reformime remove-shell renice reset resize resume rev rm rmdir rmmod route rpm rpm2cpio '+
  'rtcwake run-init run-parts runlevel runsv runsvdir rx script scriptreplay sed seedrng sendmail seq setarch '+
  'setconsole setfattr setfont setkeycodes setlogcons setpriv setserial setsid setuidgid sh sha1sum sha256sum '+
  'sha3sum sha512sum showkey shred shuf slattach sleep smemcap softlimit sort split ssl_client '+
  'start-stop-daemon stat strings stty su sulogin sum sv svc svlogd svok swapoff swapon switch_root sync sysctl '+
  'syslogd tac tail tar taskset tc tcpsvd tee telnet telnetd test tftp tftpd time timeout top touch tr '+
  'traceroute traceroute6 tree true truncate ts tsort tty ttysize tunctl ubiattach ubidetach ubimkvol ubirename '+
  'ubirmvol ubirsvol ubiupdatevol udhcpc udhcpc6 udhcpd udpsvd uevent umount uname unexpand uniq unix2dos '+
  'unlink unlzma unshare unxz unzip uptime users usleep uudecode uuencode vconfig vi vlock volname w wall watch '+
  'watchdog wc wget which who whoami whois xargs xxd xz xzcat yes zcat zcip'
).split(' '));

/**
 * The error StartContainer returns for a container of the image `ref` (a normalized reference: its repository, then
 * a tag or a digest) whose command is `argv0`, or undefined when it starts (the image has it, or the model does not
 * know the image).
 */
export function startError(ref: string, argv0: string): string | undefined {
  if (!/(^|\/)busybox[:@]/.test(ref)) return undefined;
  let err: string;
  if (!argv0.includes('/')) {
    if (APPLETS.has(argv0)) return undefined;
    err = 'executable file not found in $PATH';
  } else {
    if (argv0 === '/usr/bin/env' || (argv0.startsWith('/bin/') && APPLETS.has(argv0.slice(5)))) return undefined;
    err = `stat ${argv0}: no such file or directory`;
  }
  return `failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: error during container init: exec: ${JSON.stringify(argv0)}: ${err}: unknown`;
}

/** stress's sizes (atoll_b): a number with an optional b, k, m or g suffix, in powers of 1024. */
function stressBytes(arg: string | undefined): number | undefined {
  const m = /^(\d+)([bkmg]?)$/i.exec(arg ?? '');
  return m ? Number(m[1]) * 1024 ** ' kmg'.indexOf(m[2].toLowerCase() || ' ') : undefined;
}

/** stress's times (atoll_s): a number with an optional s, m, h, d or y suffix, in seconds. */
function stressSeconds(arg: string | undefined): number | undefined {
  const m = /^(\d+)([smhdy]?)$/.exec(arg ?? '');
  return m ? Number(m[1]) * ({ '': 1, s: 1, m: 60, h: 3600, d: 86_400, y: 31_536_000 } as Record<string, number>)[m[2]] : undefined;
}

/** How long stress's vm workers take to allocate and touch more than the limit (the model's figure). */
const OOM_AFTER = 120;

/**
 * What a program the model knows by its use of memory runs as: stress, as PID 1. Its workers allocate --vm ×
 * --vm-bytes (256M each by default); more than the container's memory limit, and the OOM killer kills the whole
 * container (exit code 137, reason OOMKilled). Within it, stress runs until --timeout, or until it is killed: as
 * PID 1 it has no handler for SIGTERM. Undefined for every other program.
 */
export function programFor(cfg: ContainerConfig): Program | undefined {
  const argv = cfg.argv;
  if (!/(^|\/)stress$/.test(argv[0] ?? '')) return undefined;
  const count = { cpu: 0, io: 0, vm: 0, hdd: 0 };
  let vmBytes = 256 * 1024 ** 2;
  let timeout: number | undefined;
  for (let i = 1; i < argv.length; i++) {
    const [opt, inline] = argv[i].startsWith('--') && argv[i].includes('=') ? [argv[i].slice(0, argv[i].indexOf('=')), argv[i].slice(argv[i].indexOf('=') + 1)] : [argv[i], undefined];
    const value = () => inline ?? argv[++i];
    const key = ({ '-c': 'cpu', '--cpu': 'cpu', '-i': 'io', '--io': 'io', '-m': 'vm', '--vm': 'vm', '-d': 'hdd', '--hdd': 'hdd' } as Record<string, keyof typeof count>)[opt];
    if (key) count[key] = Number(value()) || 0;
    else if (opt === '--vm-bytes') vmBytes = stressBytes(value()) ?? vmBytes;
    else if (opt === '-t' || opt === '--timeout') timeout = stressSeconds(value());
    else if (opt === '--vm-hang' || opt === '--vm-stride' || opt === '--hdd-bytes' || opt === '--backoff') value();
  }
  const start = `stress: info: [1] dispatching hogs: ${count.cpu} cpu, ${count.io} io, ${count.vm} vm, ${count.hdd} hdd`;
  const limit = cfg.resources ? Number(cfg.resources.memoryLimitInBytes) : intValue(cfg.memory);
  const oom = limit > 0 && count.vm * vmBytes > limit;
  if (timeout !== undefined && !oom) {
    const done = `stress: info: [1] successful run completed in ${timeout}s`;
    return { kind: 'shell', stmts: [{ kind: 'cmd', argv: ['echo', start] }, { kind: 'cmd', argv: ['sleep', String(timeout)] }, { kind: 'cmd', argv: ['echo', done] }] };
  }
  return { kind: 'service', spec: { name: 'stress', ports: [], startLogs: [{ stream: 'stdout', text: start }], stopsOn: {}, ...(oom ? { oomAfter: OOM_AFTER } : {}) } };
}
