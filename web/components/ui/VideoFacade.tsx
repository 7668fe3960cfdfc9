/**
 * A video that costs nothing until asked for: a poster with a play button, replaced by the hosting
 * service's player (autoplaying) only when the visitor clicks. Aspect ratio by padding: 177.78%
 * for portrait (9:16), 66.67% for landscape (3:2). The poster is drawn (VideoPoster.tsx) inside that
 * fixed box, so it paints without moving anything.
 */
import { Play } from 'lucide-react';
import { useState } from 'react';
import { VideoPoster, type VideoPosterScene } from './VideoPoster';

export const VIDEO_ASPECT_PADDING = { portrait: '177.78%', landscape: '66.67%' } as const;

export interface VideoFacadeProps {
  host: string;
  videoId: string;
  title: string;
  orientation: keyof typeof VIDEO_ASPECT_PADDING;
  className?: string;
  /** The drawn poster: `growth` (the default, the home page's hero) or `illustration` (/get-quote). */
  poster?: VideoPosterScene;
}

export function VideoFacade({ host, videoId, title, orientation, className, poster = 'growth' }: VideoFacadeProps) {
  const [playing, setPlaying] = useState(false);
  return (
    <div
      className={['video-facade', `video-${orientation}`, className].filter(Boolean).join(' ')}
      style={{ paddingBottom: VIDEO_ASPECT_PADDING[orientation] }}
      data-testid={`video-${orientation}`}
    >
      {playing ? (
        <iframe
          src={`${host}/embed/${encodeURIComponent(videoId)}?autoplay=1&rel=0`}
          title={title}
          allow="accelerometer; autoplay; clipboard-write; encrypted-media; gyroscope; picture-in-picture"
          allowFullScreen
        />
      ) : (
        <button type="button" className="video-poster" onClick={() => setPlaying(true)}>
          <VideoPoster scene={poster} />
          <span className="video-play" aria-hidden="true">
            <Play size={32} />
          </span>
          <span className="video-title">
            <span className="visually-hidden">Play video: </span>
            {title}
          </span>
        </button>
      )}
    </div>
  );
}
