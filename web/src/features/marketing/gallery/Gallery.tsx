/**
 * A gallery grid of thumbnails (SPEC §2): each opens the lightbox at its item. The lightbox code (react-aria's
 * modal) is loaded when a thumbnail is first pointed at or focused, so the page itself stays light.
 */
import { startTransition, Suspense, useCallback, useRef, useState } from 'react';
import { lazyModule } from '../../../lib/lazyModule';
import { thumbJpg, thumbSize, thumbWebp, type GalleryEntry } from './media';

const Lightbox = lazyModule('src/features/marketing/gallery/Lightbox.tsx', () => import('./Lightbox'));

export interface GalleryProps {
  items: readonly GalleryEntry[];
  /** Names the gallery for assistive technology, e.g. 'Video gallery'. */
  label: string;
  /** Thumbnails loaded eagerly (those likely in the first screen). */
  eager?: number;
}

export function Gallery({ items, label, eager = 0 }: GalleryProps) {
  const [open, setOpen] = useState<number | null>(null);
  const thumbs = useRef<(HTMLButtonElement | null)[]>([]);
  const preload = useCallback(() => void Lightbox.preload(), []);

  const close = useCallback((index: number) => {
    setOpen(null);
    // Back to the thumbnail of the item shown last, which may not be the one that opened the lightbox.
    // After react-aria's own focus restoration, which runs when the modal unmounts.
    requestAnimationFrame(() => requestAnimationFrame(() => thumbs.current[index]?.focus()));
  }, []);

  return (
    <>
      <ul className="gallery" aria-label={label}>
        {items.map((item, index) => {
          const size = thumbSize(item);
          const video = item.type === 'video';
          return (
            <li key={item.name} className={`gallery__cell gallery__cell--${item.orient}`}>
              <button
                type="button"
                className="gallery__thumb"
                ref={(el) => {
                  thumbs.current[index] = el;
                }}
                aria-label={`${video ? 'Play video' : 'View photo'}: ${item.title}`}
                aria-haspopup="dialog"
                onPointerEnter={preload}
                onFocus={preload}
                onClick={() => startTransition(() => setOpen(index))}
              >
                <picture>
                  <source type="image/webp" srcSet={thumbWebp(item)} />
                  <img
                    src={thumbJpg(item)}
                    alt=""
                    width={size.width}
                    height={size.height}
                    loading={index < eager ? 'eager' : 'lazy'}
                    decoding="async"
                  />
                </picture>
                {video ? (
                  <span className="gallery__play" aria-hidden="true">
                    <svg viewBox="0 0 24 24" width="28" height="28" focusable="false">
                      <path d="M8 5v14l11-7z" fill="currentColor" />
                    </svg>
                  </span>
                ) : null}
              </button>
            </li>
          );
        })}
      </ul>
      {open !== null ? (
        <Suspense fallback={null}>
          <Lightbox items={items} index={open} onIndexChange={setOpen} onClose={close} />
        </Suspense>
      ) : null}
    </>
  );
}
