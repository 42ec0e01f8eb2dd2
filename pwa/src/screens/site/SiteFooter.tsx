import { useSnapshot } from 'valtio';
import { Link } from 'wouter';
import { instance, loadInstance } from '../../state/instance';
import { ExternalLink } from '../../ui/ExternalLink';
import { useEffect } from 'react';

/** The footer of the public pages: publication profiles, legal documents, copyright (spec 01 §1, §9). */
export function SiteFooter() {
  const { links } = useSnapshot(instance);
  useEffect(() => void loadInstance(), []);
  return (
    <footer className="site-footer">
      <nav aria-label="Публикации и документы" className="footer-links">
        {links.elibrary && <ExternalLink href={links.elibrary}>Публикации в eLIBRARY.RU</ExternalLink>}
        {links.scholar && <ExternalLink href={links.scholar}>Публикации в Google Scholar</ExternalLink>}
        <Link href="/legal/privacy">Политика обработки персональных данных</Link>
        <Link href="/legal/terms">Пользовательское соглашение</Link>
        <Link href="/legal/consent">Согласие на обработку персональных данных</Link>
      </nav>
      <p>© 2016–2023 Norma</p>
    </footer>
  );
}
