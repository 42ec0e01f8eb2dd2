import { api } from '../../api/client';
import type { LiveBoardShareBody } from '../../api/types';
import { ShareLinkCard } from '../../ui/ShareLinkCard';

/** The guest screen a board key opens (SharedLiveBoardScreen). */
const boardShareLink = (key: string) => `${window.location.origin}/#/live-share/${key}`;

/**
 * «Поделиться» of the board: a board key of the structure (POST /api/v1/live_board/share); the link opens
 * the board read-only, without a login.
 */
export function BoardShare({ structureId }: { structureId: number }) {
  const createKey = async () => {
    const body = { structure_id: structureId } satisfies LiveBoardShareBody;
    return (await api.post('/api/v1/live_board/share', { body, quiet: true })).key;
  };
  return (
    <ShareLinkCard
      createKey={createKey}
      linkOf={boardShareLink}
      label="Ссылка на доску «Смена сейчас»"
      explanation="Ссылка открывает доску этой структурной единицы без входа, только для просмотра."
      testId="board-share"
      buttonClassName="button secondary"
    />
  );
}
