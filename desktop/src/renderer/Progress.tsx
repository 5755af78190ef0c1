/** A progress bar with its percent, speed and time left (the figures are read on demand, not announced). */
import { formatSpeed, formatTimeLeft, type ProgressSnapshot } from '@avp/shared';

export function ProgressLine({ progress, label }: { progress: ProgressSnapshot; label: string }) {
  return (
    <div className="app-progress">
      <progress max={100} value={progress.percent} aria-label={label} />
      <span className="app-progress__percent">{progress.percent}%</span>
      <span className="app-progress__speed">{formatSpeed(progress.bytesPerSecond)}</span>
      <span className="app-progress__left">{formatTimeLeft(progress.secondsLeft)}</span>
    </div>
  );
}
