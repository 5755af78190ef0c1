/**
 * The gallery lightbox (SPEC §2, §4): close, previous and next buttons, the left and right arrow keys,
 * Escape, images or mp4 video. Built on react-aria's modal (the widget kit's dialogs use the same): focus
 * stays inside while it is open, and the gallery puts it back on the thumbnail of the last item shown.
 */
import { useEffect, useRef } from 'react';
import { Dialog, Modal, ModalOverlay } from 'react-aria-components';
import { fullUrl, photoWebpSrcSet, thumbJpg, type GalleryEntry } from './media';

export interface LightboxProps {
  items: readonly GalleryEntry[];
  index: number;
  onIndexChange: (index: number) => void;
  /** Called with the index of the item shown when the lightbox closed. */
  onClose: (index: number) => void;
}

function Icon({ d }: { d: string }) {
  return (
    <svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true" focusable="false">
      <path
        d={d}
        fill="none"
        stroke="currentColor"
        strokeWidth="2.5"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}

export default function Lightbox({ items, index, onIndexChange, onClose }: LightboxProps) {
  const item = items[index];
  const count = items.length;
  const video = useRef<HTMLVideoElement>(null);
  const go = (step: number) => onIndexChange((index + step + count) % count);

  useEffect(() => {
    // A new item: start its clip from the beginning (the element is reused between videos).
    video.current?.load();
  }, [index]);

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.altKey || event.ctrlKey || event.metaKey || event.defaultPrevented) return;
      // The video's own controls use the arrow keys to seek while they have the focus.
      if ((event.target as HTMLElement | null)?.tagName === 'VIDEO') return;
      const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
      if (step === 0) return;
      event.preventDefault();
      onIndexChange((index + step + count) % count);
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [index, count, onIndexChange]);

  if (!item) return null;

  const captionId = `lightbox-caption-${index}`;
  return (
    <ModalOverlay
      className="lightbox-overlay"
      isOpen
      isDismissable
      onOpenChange={(isOpen) => {
        if (!isOpen) onClose(index);
      }}
    >
      <Modal className="lightbox">
        <Dialog className="lightbox__dialog" aria-label={`Gallery viewer: ${item.title}`}>
          <figure className="lightbox__figure" aria-describedby={captionId}>
            {item.type === 'video' ? (
              <video
                ref={video}
                className="lightbox__media"
                controls
                autoPlay
                muted
                playsInline
                preload="metadata"
                poster={thumbJpg(item)}
                width={item.width}
                height={item.height}
                aria-label={item.title}
              >
                <source src={fullUrl(item)} type="video/mp4" />
              </video>
            ) : (
              <picture key={item.name}>
                <source
                  type="image/webp"
                  srcSet={photoWebpSrcSet(item)}
                  sizes="(max-width: 1260px) 92vw, 1200px"
                />
                <img
                  className="lightbox__media"
                  src={fullUrl(item)}
                  alt={item.title}
                  width={item.width}
                  height={item.height}
                />
              </picture>
            )}
            <figcaption id={captionId} className="lightbox__caption">
              <span>{item.title}</span>
              <span className="lightbox__count">
                {index + 1} / {count}
              </span>
            </figcaption>
          </figure>
          <button
            type="button"
            className="lightbox__button lightbox__prev"
            aria-label="Previous"
            onClick={() => go(-1)}
          >
            <Icon d="M15 5l-7 7 7 7" />
          </button>
          <button
            type="button"
            className="lightbox__button lightbox__next"
            aria-label="Next"
            onClick={() => go(1)}
          >
            <Icon d="M9 5l7 7-7 7" />
          </button>
          <button
            type="button"
            className="lightbox__button lightbox__close"
            aria-label="Close"
            onClick={() => onClose(index)}
            autoFocus
          >
            <Icon d="M6 6l12 12M18 6L6 18" />
          </button>
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}
