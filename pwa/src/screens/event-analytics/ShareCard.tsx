import { api } from '../../api/client';
import type { EventShareBody } from '../../api/types';
import { ShareLinkCard } from '../../ui/ShareLinkCard';
import './event-share.css';

/** The guest screen a key of the hall's figures opens (SharedEventScreen). */
const eventShareLink = (key: string) => `${window.location.origin}/#/event-share/${key}`;

/**
 * «Поделиться» of the figures shown (issue 44, docs/event-analytics.md «Ссылка „поделиться“»): a share key
 * for this hall and window (POST /api/v1/event/share); the link opens the figures read-only, without a login.
 */
export function ShareCard({ structureId, from, to }: { structureId: number; from: string; to: string }) {
  const createKey = async () => {
    const body = { structure_id: structureId, from, to } satisfies EventShareBody;
    return (await api.post('/api/v1/event/share', { body, quiet: true })).hash;
  };
  return (
    <ShareLinkCard
      createKey={createKey}
      linkOf={eventShareLink}
      label="Ссылка на цифры зала"
      explanation="Ссылка открывает эти цифры зала за это окно без входа, только для просмотра."
      testId="event-share"
    />
  );
}
