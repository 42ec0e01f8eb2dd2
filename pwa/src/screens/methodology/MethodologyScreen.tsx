import { marked } from 'marked';
import { useMemo } from 'react';
import { useSnapshot } from 'valtio';
import { Link } from 'wouter';
import methodology from '../../../../docs/methodology.md?raw';
import { login } from '../../state/login';
import { ReferenceTable } from './ReferenceTable';

/**
 * /methodology: how every report figure is computed (docs/methodology.md, rendered here so the
 * product and the repository say the same thing) and, for a signed-in user, the reference values
 * the organisation's reports use. The Markdown is our own file, bundled at build time.
 */
export function MethodologyScreen() {
  const user = useSnapshot(login);
  // The organisation's own values go right after section 4 (the defaults), before section 5.
  const [before, after] = useMemo(() => {
    const at = methodology.search(/^## 5\./m);
    const parts = at < 0 ? [methodology, ''] : [methodology.slice(0, at), methodology.slice(at)];
    return parts.map((part) => marked.parse(part, { async: false, gfm: true }) as string);
  }, []);
  return (
    <section className="screen methodology">
      <article className="card markdown" dangerouslySetInnerHTML={{ __html: before! }} />
      {user.loggedIn ? (
        <ReferenceTable canEdit={user.permissions.includes('organization.admin')} />
      ) : (
        <p className="card muted">
          Справочные значения вашей организации видны после <Link href="/login">входа</Link>.
        </p>
      )}
      {after && <article className="card markdown" dangerouslySetInnerHTML={{ __html: after }} />}
    </section>
  );
}
