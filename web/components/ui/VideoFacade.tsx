/**
 * A video that costs nothing until asked for: a poster with a play button, replaced by the hosting
 * service's player (autoplaying) only when the visitor clicks. The poster is a link to the video's
 * own page on the hosting service, so it plays without JavaScript too, and Ctrl/Cmd or a middle click
 * opens that page in a new tab; a plain click, once the app runs, puts the player in place instead.
 * Aspect ratio by padding: 177.78% for portrait (9:16), 66.67% for landscape (3:2). The poster is
 * drawn (VideoPoster.tsx) inside that fixed box, so it paints without moving anything.
 */
import { Play } from 'lucide-react';
import { useState } from 'react';
import { useOpensInPlace } from './plain-click';
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

/** The player the facade puts in place: the host's embed, autoplaying, without unrelated suggestions. */
export function videoEmbedUrl(host: string, videoId: string): string {
  return `${host}/embed/${encodeURIComponent(videoId)}?autoplay=1&rel=0`;
}

/**
 * The video's own page on the hosting service (YouTube-style `/watch?v=`). The privacy-enhanced host
 * (www.youtube-nocookie.com, the site's default) serves only the embedded player, so its videos'
 * pages are on www.youtube.com.
 */
export function videoWatchUrl(host: string, videoId: string): string {
  const url = new URL(host);
  if (url.hostname === 'www.youtube-nocookie.com' || url.hostname === 'youtube-nocookie.com') url.hostname = 'www.youtube.com';
  return `${url.origin}/watch?v=${encodeURIComponent(videoId)}`;
}

export function VideoFacade({ host, videoId, title, orientation, className, poster = 'growth' }: VideoFacadeProps) {
  const [playing, setPlaying] = useState(false);
  const opener = useOpensInPlace(() => setPlaying(true));
  return (
    <div
      className={['video-facade', `video-${orientation}`, className].filter(Boolean).join(' ')}
      style={{ paddingBottom: VIDEO_ASPECT_PADDING[orientation] }}
      data-testid={`video-${orientation}`}
    >
      {playing ? (
        <iframe
          src={videoEmbedUrl(host, videoId)}
          title={title}
          allow="accelerometer; autoplay; clipboard-write; encrypted-media; gyroscope; picture-in-picture"
          allowFullScreen
        />
      ) : (
        <a href={videoWatchUrl(host, videoId)} className="video-poster" {...opener}>
          <VideoPoster scene={poster} />
          <span className="video-play" aria-hidden="true">
            <Play size={32} />
          </span>
          <span className="video-title">
            <span className="visually-hidden">Play video: </span>
            {title}
          </span>
        </a>
      )}
    </div>
  );
}
