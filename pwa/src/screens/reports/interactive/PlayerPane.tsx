import { ChoiceButtons } from '../../../ui/ChoiceButtons';
import type { FrvPlayer } from './useFrvPlayer';
import { videoUrl as fileUrl } from '../../../api/paths';

// A guest's player carries the share key, which the access check of every shared read takes from the query.
function videoUrl(videoId: number, shareKey?: string) {
  return fileUrl(videoId) + (shareKey ? `&key=${encodeURIComponent(shareKey)}` : '');
}

/** The interactive report's player: the video (or «no footage»), the camera buttons and the file's name. */
export function PlayerPane({ player, shareKey }: { player: FrvPlayer; shareKey?: string }) {
  const { video, cameras, cameraKey } = player;
  return (
    <div className="interactive-player">
      <div ref={player.videoBox} className="interactive-video-box">
        {video ? (
          <video
            ref={player.player}
            key="player"
            src={videoUrl(video.video_id, shareKey)}
            controls
            muted
            playsInline
            preload={player.preload}
            data-testid="interactive-video"
            data-video-id={video.video_id}
            onLoadedMetadata={player.metadataLoaded}
          />
        ) : (
          <div className="no-footage">Записей камер за это окно нет</div>
        )}
      </div>
      <div className="interactive-controls">
        {cameras.length > 0 && (
          <ChoiceButtons label="Камера" options={cameras} value={cameraKey} onChoose={(key) => player.chooseCamera(key)} text={(key) => `Камера ${key}`} />
        )}
        {video && (
          <span className="muted small" data-testid="video-file">
            {video.filename}
          </span>
        )}
      </div>
    </div>
  );
}
