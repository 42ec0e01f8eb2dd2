import { Link } from 'wouter';
import { ASSETS, img } from '../site/links';
import { usePageMeta } from '../site/meta';
import { SERVICES } from '../site/services';
import { SiteFooter } from '../site/SiteFooter';
import '../site/site.css';
import { ContactForm } from './ContactForm';

/** Client reviews shown as logos (spec 01 §1): wordmarks of our own drawing (docs/site.md). */
const CLIENTS = [
  { file: 'client-1', name: 'Северный прокат' },
  { file: 'client-2', name: 'ТехноЛес' },
  { file: 'client-3', name: 'Кварц Логистик' },
  { file: 'client-4', name: 'АгроВектор' },
  { file: 'client-5', name: 'МедЛайн Сервис' },
  { file: 'client-6', name: 'Городские сети' },
];

/** Spec 01 §9 «Marketing claims». */
const FACTS = [
  { value: '21 000+', text: 'сотрудников в исследованиях' },
  { value: '12', text: 'отраслей' },
  { value: '>95 %', text: 'точность анализа' },
  { value: '50+', text: 'научных публикаций' },
  { value: '1 квартал', text: 'до первых результатов' },
];

/** The landing page's title and description (also written into index.html by the prerender: src/prerender.tsx). */
export const LANDING_META = {
  title: 'Анализ рабочего времени по видео',
  description:
    'Norma измеряет, как расходуется рабочее время, по видео с рабочих мест: фотография рабочего дня, хронометраж, нормирование труда и HR-аналитика.',
};

/** Spec 01 §1 «/»: mission, why us, who we are, the platform, reviews, services, booklets, the contact form and the footer. */
export function LandingScreen() {
  usePageMeta(LANDING_META.title, LANDING_META.description);
  return (
    <div className="landing site-page">
      <section className="hero" aria-labelledby="mission">
        <div className="hero-text">
          <h1 id="mission">Норма рабочего времени — по видео, а не на глаз</h1>
          <p>
            Наша миссия — чтобы каждая норма и каждое решение о персонале опирались на измерения, а не на мнения. Norma измеряет, как расходуется рабочее время,
            по записям камер на рабочих местах: разметчики отмечают операции, модели размечают остальное, а платформа строит фотографию рабочего дня,
            хронометраж, загрузку персонала и нормы.
          </p>
          <div className="actions">
            <button type="button" className="button accent" onClick={scrollToContact}>
              Оставить заявку
            </button>
            <Link href="/products" className="button secondary">
              Наши продукты
            </Link>
            <Link href="/demo" className="button secondary">
              Демонстрация
            </Link>
          </div>
        </div>
      </section>

      <section aria-labelledby="why-us">
        <h2 id="why-us">Почему мы</h2>
        <ul className="facts">
          {FACTS.map((fact) => (
            <li key={fact.text}>
              <strong>{fact.value}</strong> {fact.text}
            </li>
          ))}
        </ul>
        <p>
          Мы не продаём «универсальные» нормы: каждую считаем по видео вашего производства и проверяем устойчивость хронометражных рядов. Экономия на
          оптимизации трудовых ресурсов — 15 %, эффективность HR-специалистов выше на 75 %.
        </p>
      </section>

      <section aria-labelledby="who-we-are" className="two-columns">
        <div>
          <h2 id="who-we-are">Кто мы</h2>
          <p>
            Команда нормировщиков, HR-консультантов, инженеров и исследователей, которая с 2016 года изучает труд на производствах, складах, в сервисе и
            медицине. Методики опубликованы в рецензируемых журналах и проверены на проектах в 12 отраслях.
          </p>
        </div>
        <div>
          <h2 id="platform">Платформа</h2>
          <p>
            Norma работает в вашем контуре, в том числе в закрытой сети: видео с камер загружается на сервер, разметчики и модели отмечают операции, аналитики
            получают фотографию рабочего дня, хронометраж, сводки загрузки и отчёты в PDF и Excel. Ссылка «только для чтения» показывает отчёт руководителю без
            входа в систему.
          </p>
        </div>
      </section>

      <section aria-labelledby="reviews">
        <h2 id="reviews">Нам доверяют</h2>
        <ul className="client-logos">
          {CLIENTS.map((client) => (
            <li key={client.file}>
              <img src={img(client.file)} alt={client.name} width={180} height={60} loading="lazy" decoding="async" />
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="services">
        <h2 id="services">Услуги</h2>
        <ul className="services">
          {SERVICES.map((service) => (
            <li key={service.title}>{service.title}</li>
          ))}
        </ul>
        <p>
          <Link href="/services">Подробнее об услугах и проектах</Link>
        </p>
      </section>

      <section aria-labelledby="booklets">
        <h2 id="booklets">Буклеты</h2>
        <div className="actions">
          <a className="button secondary" href={ASSETS.bookletRu} download>
            Буклет (PDF, русский)
          </a>
          <a className="button secondary" href={ASSETS.bookletEn} download lang="en">
            Booklet (PDF, English)
          </a>
        </div>
      </section>

      <section id="contact" className="contact" aria-labelledby="contact-title">
        <h2 id="contact-title">Связаться с нами</h2>
        <p className="muted">Расскажите о задаче — покажем Norma на вашем видео или площадке.</p>
        <ContactForm />
      </section>
      <SiteFooter />
    </div>
  );
}

/** Hash routing leaves no room for a #fragment: scroll instead of navigating. */
function scrollToContact() {
  document.getElementById('contact')?.scrollIntoView({ behavior: 'smooth' });
}
