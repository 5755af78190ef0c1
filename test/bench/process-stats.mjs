// What a benchmark reads off a process while it works: resident memory and processor time, from /proc.
import { readFileSync } from 'node:fs';

export function rssBytes(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) * 1024;
}

/** Processor seconds (user + system, all threads) a process has used so far. */
export function cpuSeconds(pid) {
  // After the command name: state is field 0, utime field 11 and stime field 12, in clock ticks.
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** Samples a process's resident set every 50 ms until stop(), which returns the peak in bytes. */
export function watchMemory(pid) {
  let peak = rssBytes(pid);
  const timer = setInterval(() => {
    try {
      peak = Math.max(peak, rssBytes(pid));
    } catch {
      // exited
    }
  }, 50);
  return () => {
    clearInterval(timer);
    return peak;
  };
}
