import { Link } from 'wouter';
import { SERVICES } from './services';
import { SitePage } from './SitePage';

/** Case studies and metrics (spec 01 §1; the figures are spec 01 §9's marketing claims). */
const CASES = [
  {
    title: 'Склад готовой продукции',
    text: 'Фотография рабочего дня 40 комплектовщиков по видео: пересмотрены нормы отбора и графики смен.',
    result: '15 % экономии фонда оплаты труда',
  },
  {
    title: 'HR-служба производственного холдинга',
    text: 'Плановая численность и оценка персонала по измеренной загрузке вместо анкет.',
    result: 'эффективность HR-специалистов выше на 75 %',
  },
  {
    title: 'Проектный институт',
    text: 'Трекер задач и плагин опалубки для отдела конструкторов.',
    result: 'до 80 % экономии времени на задачах, проектирование опалубки на 30 % быстрее',
  },
];

const METRICS = [
  { value: '21 000+', text: 'сотрудников в исследованиях' },
  { value: '12', text: 'отраслей' },
  { value: '>95 %', text: 'точность анализа' },
  { value: '50+', text: 'научных публикаций' },
];

export function ServicesScreen() {
  return (
    <SitePage
      testId="page-services"
      title="Услуги"
      description="Услуги Norma: анализ производительности труда по видео, нормирование труда, оценка персонала, HR-консалтинг, системы оплаты и мотивации."
      lead="От измерения рабочего времени по видео до норм, систем оплаты и HR-процессов. Первые результаты — в течение квартала."
    >
      <ul className="service-list" data-testid="service-list">
        {SERVICES.map((service) => (
          <li key={service.title}>
            <h2>{'href' in service ? <Link href={service.href}>{service.title}</Link> : service.title}</h2>
            <p>{service.text}</p>
          </li>
        ))}
      </ul>
      <section aria-labelledby="metrics">
        <h2 id="metrics">В цифрах</h2>
        <ul className="facts">
          {METRICS.map((metric) => (
            <li key={metric.text}>
              <strong>{metric.value}</strong> {metric.text}
            </li>
          ))}
        </ul>
      </section>
      <section aria-labelledby="cases">
        <h2 id="cases">Проекты</h2>
        <div className="card-grid">
          {CASES.map((item) => (
            <article key={item.title} className="site-card text-only">
              <div className="site-card-body">
                <h3>{item.title}</h3>
                <p>{item.text}</p>
                <p className="result">Итог: {item.result}</p>
              </div>
            </article>
          ))}
        </div>
      </section>
    </SitePage>
  );
}
