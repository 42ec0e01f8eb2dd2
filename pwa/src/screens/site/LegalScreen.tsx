import { Link } from 'wouter';
import { LEGAL } from './legal';
import { SitePage } from './SitePage';

/** /legal/privacy, /legal/terms, /legal/consent: the legal documents as readable pages. */
export function LegalScreen({ doc }: { doc?: string }) {
  const document = doc && doc in LEGAL ? LEGAL[doc as keyof typeof LEGAL] : null;
  if (!document)
    return (
      <SitePage testId="page-legal" title="Документ не найден" description="Такого документа нет.">
        <p>
          Такого документа нет. <Link href="/legal/privacy">Политика обработки персональных данных</Link>
        </p>
      </SitePage>
    );
  return (
    <SitePage
      testId="page-legal"
      title={document.title}
      description={document.description}
      lead="Шаблон документа: реквизиты Оператора указываются при установке."
    >
      <div className="legal-text">
        {document.sections.map((section) => (
          <section key={section.heading}>
            <h2>{section.heading}</h2>
            {section.paragraphs.map((paragraph) => (
              <p key={paragraph}>{paragraph}</p>
            ))}
          </section>
        ))}
      </div>
    </SitePage>
  );
}
