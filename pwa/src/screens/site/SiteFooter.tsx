import { Link } from 'wouter';
import { ExternalLink } from './ExternalLink';
import { EXTERNAL } from './links';

/** The footer of the public pages: publication profiles, legal documents, copyright (spec 01 §1, §9). */
export function SiteFooter() {
  return (
    <footer className="site-footer">
      <nav aria-label="Публикации и документы" className="footer-links">
        <ExternalLink href={EXTERNAL.elibrary}>Публикации в eLIBRARY.RU</ExternalLink>
        <ExternalLink href={EXTERNAL.scholar}>Публикации в Google Scholar</ExternalLink>
        <Link href="/legal/privacy">Политика обработки персональных данных</Link>
        <Link href="/legal/terms">Пользовательское соглашение</Link>
        <Link href="/legal/consent">Согласие на обработку персональных данных</Link>
      </nav>
      <p>© 2016–2023 Norma</p>
    </footer>
  );
}
