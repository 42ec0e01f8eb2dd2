import { useState } from 'react';
import { ASSETS } from './links';

/** What each of the 7 pages of the example report shows (scripts/site-assets.mjs takes them in this order). */
export const SLIDE_CAPTIONS = [
  'Ведомость: фотография рабочего дня',
  'Хронометраж операций',
  'Устойчивость хронометражных рядов',
  'Структура рабочего времени',
  'Парето потерь времени',
  'Блочный отчёт по участку',
  'Интерактивный отчёт: таблица по видео',
];

/** Spec 01 §9 «PDF example carousel: 7 slides»: real pages of Norma's report on the demo data. */
export function ReportCarousel() {
  const [index, setIndex] = useState(0);
  const count = ASSETS.slides.length;
  const go = (step: number) => setIndex((current) => (current + step + count) % count);
  return (
    <div className="carousel" aria-roledescription="карусель" aria-label="Пример отчёта Norma" data-testid="report-carousel">
      <figure className="carousel-slide" aria-live="polite">
        <img
          src={ASSETS.slides[index]}
          alt={`Страница ${index + 1} из ${count}: ${SLIDE_CAPTIONS[index]}`}
          width={1200}
          height={750}
          data-testid="carousel-image"
        />
        <figcaption>
          {index + 1} / {count} · {SLIDE_CAPTIONS[index]}
        </figcaption>
      </figure>
      <div className="carousel-controls">
        <button type="button" className="button secondary" onClick={() => go(-1)} aria-label="Предыдущая страница">
          ←
        </button>
        <div className="carousel-dots">
          {ASSETS.slides.map((slide, i) => (
            <button
              key={slide}
              type="button"
              className={`carousel-dot${i === index ? ' active' : ''}`}
              aria-label={`Страница ${i + 1}`}
              aria-current={i === index}
              onClick={() => setIndex(i)}
            />
          ))}
        </div>
        <button type="button" className="button secondary" onClick={() => go(1)} aria-label="Следующая страница">
          →
        </button>
      </div>
    </div>
  );
}
