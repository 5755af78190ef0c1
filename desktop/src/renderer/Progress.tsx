/** A progress bar with its percent, speed and time left (the figures are read on demand, not announced). */
import type { ProgressSnapshot } from '@avp/shared';
import { speedText, timeLeftText } from './format';

export function ProgressLine({ progress, label }: { progress: ProgressSnapshot; label: string }) {
  return (
    <div className="app-progress">
      <progress max={100} value={progress.percent} aria-label={label} />
      <span className="app-progress__percent">{progress.percent}%</span>
      <span className="app-progress__speed">{speedText(progress.bytesPerSecond)}</span>
      <span className="app-progress__left">{timeLeftText(progress.secondsLeft)}</span>
    </div>
  );
}
