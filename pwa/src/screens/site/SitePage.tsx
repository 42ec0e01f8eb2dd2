import type { ReactNode } from 'react';
import { usePageMeta } from './meta';
import { SiteFooter } from './SiteFooter';
import './site.css';

/** The frame of a public page: its title and description (usePageMeta), the heading, the footer. */
export function SitePage({
  title,
  description,
  lead,
  children,
  testId,
}: {
  title: string;
  description: string;
  lead?: ReactNode;
  children: ReactNode;
  testId: string;
}) {
  usePageMeta(title, description);
  return (
    <div className="site-page screen" data-testid={testId}>
      <header className="page-head">
        <h1>{title}</h1>
        {lead && <p className="lead">{lead}</p>}
      </header>
      {children}
      <SiteFooter />
    </div>
  );
}

/** A card with a picture, a title, a text and whatever goes below (a link, a date). */
export function Card({ picture, alt = '', title, children }: { picture: string; alt?: string; title: string; children: ReactNode }) {
  return (
    <article className="site-card">
      <img src={picture} alt={alt} width={320} height={180} loading="lazy" decoding="async" />
      <div className="site-card-body">
        <h2>{title}</h2>
        {children}
      </div>
    </article>
  );
}
