import { Link } from 'wouter';
import { ContactLink } from './ContactLink';
import { ASSETS, img } from './links';
import { SitePage } from './SitePage';

/** Spec 01 §1 «AI page»: live video-stream analytics with instant productivity snapshots, a demo, the PDF example. */
export function AiScreen() {
  return (
    <SitePage
      testId="page-ai"
      title="AI-аналитика видеопотока"
      description="Аналитика живого видеопотока с камер: моментальные снимки производительности, загрузка рабочих мест и пример отчёта в PDF."
      lead="Аналитика живого видеопотока: моментальные снимки производительности рабочих мест — без ожидания конца смены."
    >
      <div className="two-columns">
        <img
          src={img('ai-stream')}
          alt="Схема: камеры передают видео, модель отмечает операции, панель показывает загрузку"
          width={480}
          height={270}
          loading="lazy"
        />
        <div>
          <h2>Что вы получаете</h2>
          <ul className="check-list">
            <li>Загрузку каждого рабочего места за последние минуты и за смену</li>
            <li>Простои и их причины по разметке моделей</li>
            <li>Фотографию рабочего дня и хронометраж без ручных замеров</li>
            <li>Экономию на оптимизации трудовых ресурсов — 15 %</li>
          </ul>
          <div className="actions">
            <ContactLink>Заказать демонстрацию</ContactLink>
            <a className="button secondary" href={ASSETS.reportPdf} download>
              Пример отчёта (PDF)
            </a>
          </div>
          <p>
            <Link href="/report-example">Страницы примера отчёта</Link> · <Link href="/demo">Как проходит демонстрация</Link>
          </p>
        </div>
      </div>
    </SitePage>
  );
}
