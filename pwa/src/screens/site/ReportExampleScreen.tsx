import { ASSETS } from './links';
import { ReportCarousel } from './ReportCarousel';
import { SitePage } from './SitePage';

/** Spec 02 «/report-example»: the same 7 report images as the demo page. */
export function ReportExampleScreen() {
  return (
    <SitePage
      testId="page-report-example"
      title="Пример отчёта"
      description="Пример отчёта Norma: 7 страниц отчёта платформы по демонстрационным данным — фотография рабочего дня, хронометраж, загрузка."
      lead="Страницы настоящего отчёта Norma, построенного по демонстрационным данным."
    >
      <ReportCarousel />
      <p>
        <a href={ASSETS.reportPdf} download>
          Скачать отчёт целиком (PDF)
        </a>
      </p>
    </SitePage>
  );
}
