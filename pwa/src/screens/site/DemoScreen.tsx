import { ContactLink } from './ContactLink';
import { ASSETS } from './links';
import { ReportCarousel } from './ReportCarousel';
import { SitePage } from './SitePage';

/** Spec 01 §1 «Demo page»: a demonstration on the visitor's own video or location, and the 7-slide report example. */
export function DemoScreen() {
  return (
    <SitePage
      testId="page-demo"
      title="Демонстрация"
      description="Демонстрация Norma на вашем видео или площадке и пример отчёта: 7 страниц настоящего отчёта платформы."
      lead="Покажем Norma на вашем видео или на вашей площадке: пришлите запись с камеры или пригласите нас — первые результаты в течение квартала."
    >
      <div className="actions">
        <ContactLink>Заказать демонстрацию</ContactLink>
        <a className="button secondary" href={ASSETS.reportPdf} download>
          Пример отчёта (PDF)
        </a>
      </div>
      <h2>Пример отчёта</h2>
      <ReportCarousel />
    </SitePage>
  );
}
