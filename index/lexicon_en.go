package index

// lexiconEN groups everyday English vocabulary about a user's personal life
// into topic/subtopic classes, so that two facts about the same part of a
// user's life can be found as candidates for each other even when they share
// no word ("I play the cello" / "these days my instrument is the violin").
//
// Format: one "topic/subtopic: word word ..." line per class (a class may be
// continued on further lines with the same key); lines starting with # are
// comments. Words are lowercase single tokens in base form; the text and the
// lexicon are both run through the English Snowball stemmer, so inflections
// are not listed, but derived words that stem differently are.
const lexiconEN = `
# ---------------------------------------------------------------- employment
employment/employer: employer employ employed employee employment job jobs work worker workers company firm corporation corporate business organisation organization startup agency enterprise headquarters hq subsidiary multinational conglomerate nonprofit non-profit charity ngo ministry boss manager supervisor staff payroll
employment/role: job role position title profession professional occupation occupational career vocation trade specialist engineer engineering developer programmer coder software designer analyst accountant architect baker barista builder carpenter cashier chef cleaner clerk consultant cook courier economist electrician farmer firefighter journalist lawyer solicitor attorney barrister paralegal librarian mechanic nurse paramedic pharmacist photographer pilot plumber policeman policewoman officer professor receptionist researcher salesman saleswoman salesperson scientist secretary surgeon teacher technician translator interpreter tutor waiter waitress writer editor administrator sysadmin devops tester ceo cto cfo coo founder cofounder co-founder director executive intern trainee apprentice junior senior supervisor manager promoted promotion copywriter marketer marketing recruiter hr psychologist therapist vet soldier military sailor driver trucker miner
employment/workplace: office workplace desk cubicle coworking co-working remote remotely wfh hybrid onsite factory warehouse lab laboratory studio colleague colleagues coworker co-worker teammate team department boss manager staff shift shifts overtime workday workweek workload deadline project client clients customer customers commute
employment/pay: salary salaried wage wages pay paid payslip paycheck paycheque payroll payday income earn earnings bonus bonuses commission overtime gross pension benefits perks compensation equity rsu stipend tips underpaid overpaid
employment/change: resign resignation resigned fired sacked sack dismissed dismissal laid layoff layoffs redundant redundancy hire hired hiring recruit recruited recruiter recruitment headhunter headhunted interview interviewed interviewing applicant application vacancy vacancies onboarding probation promoted promotion demoted transfer transferred retire retired retirement unemployed unemployment jobless jobseeker job-hunting cv resume linkedin employer job career ex-employer rehired
employment/status: self-employed freelance freelancer freelancing contractor contract consultant consulting temp temporary permanent intern internship gig hustle moonlight moonlighting entrepreneur entrepreneurship owner founder retired retiree pensioner unemployed maternity paternity sabbatical furlough furloughed volunteer volunteering employed employment job

# ---------------------------------------------------------------- residence
residence/home: live living reside resident residence residential inhabitant dwell dwelling hometown home house flat apartment condo condominium studio duplex bungalow cottage townhouse terraced semi-detached detached dorm dormitory hostel lodgings digs houseboat penthouse loft mansion cabin farmhouse caravan trailer housing homeless address floor storey tower block estate compound
residence/location: city town village hamlet suburb suburbs suburban countryside rural urban downtown uptown district borough neighbourhood neighborhood region county province country capital abroad overseas expat expatriate emigrant immigrant citizen native local locals hometown outskirts centre center street avenue metropolitan island coast coastal seaside inland north south east west northern southern eastern western
residence/move: move moved moving relocate relocation relocated movers settle settled resettle emigrate emigration immigrate immigration migrate migration packing unpacking house-hunting house-hunt realtor estate-agent housewarming mover
residence/housing: rent rental rented renting renter lease leasehold freehold mortgage homeowner tenant tenancy landlord landlady deposit evict eviction roommate roommates flatmate flatmates housemate housemates neighbour neighbours neighbor neighbors houseshare subletting sublet airbnb council-house social-housing

# ---------------------------------------------------------------- family
family/parents: mother mom mum mommy mummy mama mam father dad daddy papa parent parents parental parenthood parenting stepmother stepfather stepmom stepmum stepdad stepparent inlaws guardian adopt adopted adoptive adoption foster fostering motherhood fatherhood
family/children: child children kid kids son sons daughter daughters baby babies toddler infant newborn teen teenager teenage boy girl twin twins triplets stepson stepdaughter stepchild stepkid godson goddaughter godchild pregnancy pregnant birth born firstborn eldest youngest nanny babysitter babysit babysitting daycare nursery childcare childminder preschooler schoolkid offspring kiddo
family/siblings: brother brothers sister sisters sibling siblings sis bro stepbrother stepsister twin elder
family/relatives: grandmother grandma granny nan nana nanna gran grandfather grandpa granddad grandad gramps grandparent grandparents grandson granddaughter grandchild grandchildren grandkid grandkids aunt auntie aunty uncle cousin cousins nephew niece relative relatives kin kinfolk godmother godfather godparent ancestor ancestors descendant family families familial folks household clan

# ---------------------------------------------------------------- relationships
relationships/partner: partner partners boyfriend girlfriend bf gf husband wife wives spouse hubby wifey fiance fiancee lover sweetheart soulmate companion
relationships/status: single married marry marriage wed wedded wedding engaged engagement divorce divorced divorcee separated separation widow widowed widower relationship breakup dumped ex exes ex-wife ex-husband ex-boyfriend ex-girlfriend ex-partner cheat cheated cheating affair crush tinder bumble proposal propose proposed anniversary honeymoon cohabit cohabiting newlywed newlyweds remarried remarry courtship romance romantic boyfriendless girlfriendless spouseless bachelor spinster
relationships/friends: friend friends friendship friendly bestie bff buddy mate pal acquaintance classmate roommate flatmate neighbour neighbor mentor companion chum confidant

# ---------------------------------------------------------------- pets
pets/animals: pet pets dog dogs doggy doggo puppy pup cat cats kitten kitty hamster gerbil rabbit bunny guinea-pig parrot budgie cockatiel bird canary fish goldfish aquarium turtle tortoise snake python lizard gecko iguana chameleon ferret rat mouse mice chinchilla hedgehog horse pony donkey hen chickens goat axolotl tarantula spider frog
pets/breeds: breed labrador lab retriever poodle labradoodle cockapoo terrier spaniel beagle dachshund bulldog pug husky corgi chihuahua shepherd collie rottweiler doberman greyhound whippet schnauzer pomeranian maltese shih-tzu dalmatian boxer mastiff siamese persian sphynx ragdoll tabby maine-coon bengal mongrel mutt purebred pedigree crossbreed rescue stray
pets/care: vet vets veterinarian veterinary groomer grooming leash collar harness kennel cage litter crate kibble petfood dogfood catfood walkies neuter neutered spay spayed microchip microchipped flea fleas worming deworm adopt adopted shelter rehome rehomed bark barking purr meow paw paws fur tail pet-sitter dogsitter dog-walker catsitter kennels cattery obedience housetrain

# ---------------------------------------------------------------- health
health/conditions: health healthy unhealthy ill illness sick sickness disease condition diagnosis diagnosed diagnose chronic allergy allergic allergies asthma asthmatic diabetes diabetic hypertension cholesterol migraine migraines headache headaches cancer tumour tumor arthritis eczema psoriasis epilepsy epileptic anemia anaemia anaemic thyroid celiac coeliac ibs crohn adhd autism autistic dyslexia dyslexic covid flu cough fever infection virus injury injured fracture fractured sprain sprained pain painful ache aches backache toothache stomachache nausea dizzy dizziness fatigue symptom symptoms disability disabled deaf blind wheelchair pregnant pregnancy concussion stroke heart-attack surgery operation recovery recover recovering hernia gout lupus
health/care: doctor doctors gp physician dr clinic hospital hospitalised hospitalized surgery surgeon operation nurse specialist checkup dentist dental orthodontist braces optician optometrist ophthalmologist physio physiotherapy physiotherapist chiropractor osteopath therapist therapy psychologist psychiatrist counsellor counselor counselling counseling cardiologist dermatologist gynecologist gynaecologist pediatrician paediatrician allergist neurologist oncologist urologist emergency ambulance er icu ward nhs scan mri xray ultrasound bloodwork vaccine vaccinated vaccination jab booster rehab rehabilitation medical medic healthcare outpatient inpatient referral
health/body: knee knees shoulder neck spine spinal hip ankle wrist tooth teeth eye eyes ear ears stomach heart lung lungs liver kidney kidneys skin joint joints muscle muscles bone bones blood-pressure bloodpressure pulse weight overweight obese obesity bmi eyesight vision
health/mental: mental stress stressed burnout anxiety anxious depression depressed panic ocd ptsd bipolar therapy therapist psychologist psychiatrist counsellor wellbeing lonely loneliness grief

# ---------------------------------------------------------------- medication
medication/general: medication medications medicine medicines meds drug drugs pill pills tablet tablets capsule capsules dose doses dosage prescription prescriptions prescribed prescribe pharmacy pharmacist chemist drugstore otc refill
medication/types: antibiotic antibiotics painkiller painkillers ibuprofen paracetamol acetaminophen aspirin tylenol advil nurofen codeine antihistamine antihistamines inhaler insulin metformin statin statins antidepressant antidepressants ssri sertraline fluoxetine citalopram prozac zoloft xanax diazepam beta-blocker blood-thinner warfarin steroid steroids cortisone levothyroxine thyroxine epipen contraceptive contraception hrt injection injections syringe eyedrops ointment antacid laxative
medication/supplements: vitamin vitamins multivitamin supplement supplements omega magnesium zinc probiotic probiotics melatonin collagen creatine protein-powder folic

# ---------------------------------------------------------------- diet
diet/type: diet diets dieting dietary vegetarian veggie vegan veganism pescatarian pescetarian flexitarian keto ketogenic paleo carnivore mediterranean halal kosher intermittent wholefood
diet/restrictions: gluten lactose dairy lactose-intolerant intolerance intolerant allergy allergic nut nuts peanut peanuts shellfish celiac coeliac meatless abstain teetotal teetotaler teetotaller sober sobriety non-alcoholic
diet/nutrition: calorie calories protein fibre fiber sugar sugars salt sodium fat fats macros nutrition nutritional nutrient nutrients nutritionist dietitian dietician portion portions snack snacking carb carbs carbohydrates superfood wholegrain
diet/weight: weight weigh overweight slim slimming weight-loss weightwatchers kilos kg lbs bulking scales

# ---------------------------------------------------------------- sleep
sleep/habits: sleep sleeping asleep sleepy sleeper bedtime bed nap naps napping siesta doze snooze wake woke awake waking wakeup alarm overslept oversleep night-owl owl lark overnight slept
sleep/problems: insomnia insomniac sleepless sleeplessness nightmare nightmares dream dreams dreaming snore snoring apnea apnoea cpap melatonin jetlag jet-lag tired tiredness exhausted exhaustion drowsy restless sleepwalking sleepwalk sleep-deprived fatigue dreamt dreamed
sleep/bedding: pillow pillows mattress duvet blanket sheets bedding quilt pyjamas pajamas nightgown earplugs eyemask bedroom bunk

# ---------------------------------------------------------------- schedule
schedule/routine: schedule scheduled routine routines timetable calendar agenda planner diary daily fortnightly biweekly habit habits punctual reminder remind reschedule rescheduled postpone postponed commitment commitments
schedule/week: weekday weekdays weekend weekends monday mondays tuesday tuesdays wednesday wednesdays thursday thursdays friday fridays saturday saturdays sunday sundays
schedule/timeofday: noon midday midnight lunchtime dawn dusk sunrise sunset overnight
schedule/hours: shift shifts workday workweek deadline deadlines overtime timeslot slot
schedule/dates: january february march april june july august september october november december

# ---------------------------------------------------------------- education
education/school: school schools schooling preschool kindergarten nursery primary elementary secondary highschool lyceum academy pupil pupils schoolboy schoolgirl schoolchild classmate classroom homework teacher teachers headteacher headmaster headmistress principal homeschool homeschooled homeschooling gcse gcses sat
education/university: college university universities uni varsity campus faculty institute polytechnic student students undergraduate undergrad postgraduate postgrad freshman sophomore semester trimester lecture lectures lecturer seminar seminars professor dean alumni alumnus alumna tuition scholarship enrol enroll enrolled enrolment enrollment admission admissions dropout dorm dormitory fraternity sorority
education/degree: degree diploma bachelor bachelors master masters mba phd thesis dissertation graduate graduated graduation grad qualification qualifications qualified certificate certification certified accredited coursework
education/study: study studying studies student learn learning learner module modules major tutor tutoring tuition textbook curriculum syllabus research researcher revision revise exam exams examination quiz midterm midterms assignment assignments essay grade grades gpa bootcamp coursera udemy mooc apprenticeship teach taught
education/subjects: math maths mathematics physics chemistry biology history literature economics law engineering computer-science informatics philosophy psychology sociology geography linguistics medicine nursing architecture statistics

# ---------------------------------------------------------------- hobbies
hobbies/general: hobby hobbies pastime pastimes leisure enthusiast amateur passion club
hobbies/crafts: knit knitting crochet crocheting sew sewing seamstress embroidery embroider quilting pottery ceramics woodwork woodworking carpentry diy craft crafts crafting crafty scrapbooking origami miniature miniatures 3d-printing
hobbies/art: painting paint painter drawing draw sketch sketching sketchbook watercolour watercolor acrylic canvas calligraphy photography photographer photo photos camera illustration illustrator sculpture sculpting writing poetry poem blogging blog vlog vlogging journaling journal
hobbies/collecting: collect collecting collector collection stamps coins vinyl antiques memorabilia figurines
hobbies/games: puzzle puzzles jigsaw crossword crosswords sudoku chess checkers draughts boardgame boardgames tabletop dungeons cards poker bingo quiz trivia lego rubik
hobbies/outdoors: gardening garden gardener allotment plants houseplants bonsai birdwatching birding fishing angling angler hunting camping camper hiking foraging mushrooming metal-detecting astronomy stargazing telescope geocaching
hobbies/social: volunteering volunteer meditation karaoke cosplay genealogy baking cooking dancing singing choir book-club

# ---------------------------------------------------------------- music
music/instruments: instrument instruments instrumental instrumentalist cello cellist violin violinist viola violist fiddle fiddler contrabass bass bassist guitar guitarist acoustic electric-guitar ukulele uke banjo mandolin harp harpist piano pianist keyboard keyboards keyboardist synth synthesizer synthesiser organist accordion harmonica flute flautist flutist clarinet clarinettist oboe bassoon saxophone sax saxophonist trumpet trumpeter trombone tuba horn drum drums drummer drumkit percussion percussionist xylophone marimba balalaika bagpipes cymbals tambourine strings string woodwind brass bow amp amplifier pedal fretboard
music/genres: genre jazz rock hip-hop hiphop rap rapper classical folk metal punk techno edm electronic dubstep reggae soul funk disco indie opera symphony symphonic orchestra orchestral kpop k-pop grunge gospel chanson ambient lo-fi lofi trance
music/listening: music musical musician musicians song songs songwriter singer singers sing singing vocals vocalist band bands album albums playlist playlists spotify soundcloud itunes apple-music vinyl turntable headphones concert concerts gig gigs festival festivals artist composer compose lyrics melody tune tunes chord chords sheet-music listen listening radio sang sung
music/practice: practise practice practising rehearse rehearsal rehearsals lesson lessons conservatory conservatoire choir orchestra ensemble quartet trio duet solo perform performance recital audition scales metronome

# ---------------------------------------------------------------- sport
sport/activities: sport sports sporty athlete athletic athletics football soccer basketball volleyball baseball softball hockey rugby cricket tennis badminton squash ping-pong golf golfer boxing boxer kickboxing mma martial-arts karate judo jiu-jitsu taekwondo wrestling fencing archery climbing climber bouldering swim swimming swimmer dive diving scuba surf surfing surfer ski skiing skier snowboard snowboarding skate skating skateboard skateboarding ice-skating cycling cyclist biking runner jogging jog jogger marathon triathlon ironman hike hiking hiker trekking rowing kayak kayaking canoe canoeing sailing paddleboarding horse-riding equestrian gymnastics parkour dance dancing dancer ballet salsa swam
sport/fitness: exercise exercising workout workouts trainer fitness fit gym gyms yoga pilates crossfit aerobics zumba stretching weightlifting powerlifting bodybuilding lifting weights dumbbell dumbbells kettlebell barbell treadmill cardio spinning squat squats deadlift pushups plank abs reps strava fitbit garmin hiit
sport/team: team teams club league match matches tournament championship champion coach coaching teammate captain fan fans stadium referee premier-league nfl nba nhl fifa olympics olympic medal season-ticket

# ---------------------------------------------------------------- devices
devices/phone: phone phones smartphone mobile cellphone iphone android samsung galaxy pixel xiaomi huawei nokia motorola oneplus handset sim esim charger battery screen touchscreen
devices/computer: computer computers pc laptop laptops notebook desktop macbook mac imac ipad tablet chromebook linux macos ios keyboard mouse monitor printer scanner router wifi wi-fi modem ssd usb webcam headset microphone mic speaker speakers lenovo dell hp asus acer microsoft
devices/gadgets: gadget gadgets device devices smartwatch apple-watch fitbit garmin tracker earbuds airpods headphones earphones bluetooth alexa siri console playstation ps4 ps5 xbox nintendo vr oculus headset drone camera gopro kindle e-reader ereader television chromecast roku firestick sonos
devices/software: app apps software os password passwords account login cloud icloud backup storage gigabytes gb antivirus malware firmware dropbox

# ---------------------------------------------------------------- media
media/tv: tv television telly series episode episodes sitcom drama documentary documentaries docuseries cartoon cartoons anime channel channels bbc cable binge binge-watch binge-watching rewatch rewatching watch watching film films movie movies cinema theatre theater actor actress blockbuster trailer thriller horror comedy romcom sci-fi scifi fantasy
media/streaming: streaming stream streamer netflix hulu hbo disney prime-video amazon-prime youtube twitch crunchyroll paramount apple-tv appletv iplayer
media/books: book books novel novels novelist author writer read reading reader bookworm bookshop bookstore library audiobook audiobooks audible kindle ebook e-book paperback hardback hardcover fiction nonfiction non-fiction biography memoir poetry poem poet comic comics manga graphic-novel bestseller bookclub book-club goodreads magazine magazines newspaper newspapers
media/podcasts: podcast podcasts podcaster radio audiobook listen listening episode host
media/games: gamer gaming videogame videogames video-game console playstation xbox nintendo steam minecraft fortnite rpg mmo esports multiplayer joystick game games
media/social: social-media instagram facebook twitter tiktok reddit snapchat pinterest youtube youtuber blog blogger vlog vlogger influencer feed scroll scrolling doomscrolling

# ---------------------------------------------------------------- travel
travel/trips: travel travelling traveling traveller traveler trip trips journey holiday holidays vacation vacationing getaway abroad overseas tourist tourism tour sightseeing backpack backpacking backpacker cruise roadtrip road-trip visit destination itinerary honeymoon staycation expedition safari pilgrimage wanderlust
travel/transport: flight flights fly flying flew plane airplane aeroplane airport airline airlines layover stopover terminal luggage baggage suitcase jetlag lounge ryanair easyjet train trains rail railway ferry cruise interrail eurostar
travel/accommodation: hotel hotels hostel motel airbnb reservation resort inn guesthouse villa campsite camping tent caravan rv motorhome
travel/places: beach mountains mountain seaside coast island lake resort museum landmark europe asia africa america australia continent

# ---------------------------------------------------------------- finances
finances/banking: bank banks banking account savings debit credit card cards creditcard mastercard amex paypal revolut monzo venmo iban overdraft transfer deposit withdraw withdrawal atm cash cashback contactless barclays hsbc lloyds santander natwest
finances/money: money finance finances financial budget budgeting spend spending expense expenses afford affordable expensive cheap broke rich wealthy wealth income pocket-money frugal thrifty splurge currency dollar dollars euro euros quid bucks rouble roubles ruble rubles cent cents penny pence savings
finances/debt: debt debts loan loans mortgage credit borrow borrowed lend lender owe owed repay repayment instalment installment apr overdraft bankrupt bankruptcy student-loan payday-loan
finances/investing: invest investing investment investments investor stock stocks stockmarket portfolio etf fund funds pension pensions retirement 401k ira isa bond bonds crypto cryptocurrency bitcoin ethereum trading trader broker brokerage dividend dividends property
finances/bills: bill bills utilities invoice payment payments tax taxes taxation hmrc irs refund receipt fee fees rent council-tax

# ---------------------------------------------------------------- vehicles
vehicles/car: car cars vehicle automobile auto sedan saloon hatchback suv minivan van truck lorry pickup convertible coupe jeep ev electric-car tesla toyota honda ford bmw audi volkswagen vw mercedes volvo kia hyundai nissan mazda skoda renault peugeot lada fiat subaru porsche lexus chevrolet chevy prius
vehicles/driving: drive driving driver drove motorist licence license driving-licence learner-driver parking garage petrol gasoline diesel fuel refuel mileage mpg odometer speeding mot mechanic tyre tyres windscreen windshield brakes gearbox automatic transmission horsepower dealership dealer carwash crash accident dent breakdown roadside towing satnav
vehicles/bikes: bike bikes bicycle cycle cycling ebike e-bike motorbike motorcycle moped scooter e-scooter helmet vespa harley ride rode rider
vehicles/ownership: lease leasing financing registration numberplate car-insurance road-tax logbook

# ---------------------------------------------------------------- commute
commute/commuting: commute commuting commuter journey traffic congestion gridlock carpool carpooling rideshare uber lyft taxi cab minicab
commute/public: bus buses tram trolleybus metro subway underground tube train rail railway station fare fares timetable season-ticket travelcard oyster transit transport
commute/active: cycle bike cycling scooter

# ---------------------------------------------------------------- languages
languages/names: language languages english russian french german spanish italian portuguese chinese mandarin cantonese japanese korean arabic hebrew hindi urdu bengali turkish polish ukrainian belarusian czech slovak dutch swedish norwegian danish finnish greek latin hungarian romanian bulgarian serbian croatian georgian armenian kazakh uzbek tatar farsi vietnamese thai indonesian swahili esperanto asl bsl welsh irish gaelic catalan basque
languages/learning: fluent fluency fluently bilingual trilingual multilingual polyglot native accent dialect grammar vocabulary pronunciation speak speaker spoken translate translation translator interpreter duolingo babbel ielts toefl cefr beginner intermediate advanced conversational phrasebook subtitles dubbed linguistic spoke

# ---------------------------------------------------------------- contact
contact/phone: phone telephone mobile cell cellphone landline sms whatsapp telegram viber facetime skype zoom voicemail
contact/email: email e-mail emails gmail outlook hotmail yahoo icloud protonmail inbox newsletter mailbox
contact/address: address postcode postal zipcode zip postbox street avenue apartment delivery deliver courier parcel mailing doorstep intercom doorbell
contact/online: username profile messenger discord slack linkedin dm telegram whatsapp instagram

# ---------------------------------------------------------------- names
names/name: name names named firstname forename surname surnames lastname maiden maiden-name patronymic initials rename renamed namesake
names/nickname: nickname nicknames nicknamed alias pseudonym pen-name username moniker diminutive
names/address: mr mrs mx sir madam maam pronoun pronouns formal informal formally informally honorific address addressed

# ---------------------------------------------------------------- preferences
preferences/likes: love adore enjoy enjoyment fond fan passion passionate obsessed obsession keen prefer preference preferred taste tastes fancy crave
preferences/favourites: favourite favorite favourites favorites fave fav beloved
preferences/dislikes: dislike dislikes hate hated detest loathe annoy annoying irritate irritating averse aversion avoid peeve phobia afraid fear scared terrified disgusting gross yuck nasty unpleasant boring bored tolerate allergic

# ---------------------------------------------------------------- subscriptions
subscriptions/plans: subscription subscriptions subscribe subscribed subscriber unsubscribe membership member premium tier trial renew renewal cancel cancellation recurring
subscriptions/billing: annual annually billing billed fee fees
subscriptions/services: netflix spotify youtube disney hbo prime amazon-prime apple-music icloud dropbox patreon magazine newspaper meal-kit hellofresh gamepass xbox playstation audible chatgpt gym

# ---------------------------------------------------------------- home
home/rooms: room rooms bedroom kitchen bathroom toilet loo wc lavatory livingroom living-room lounge dining-room hallway corridor attic loft basement cellar garage balcony patio porch garden yard backyard nursery pantry closet wardrobe storeroom utility-room
home/furniture: furniture sofa couch armchair chair chairs table desk bed bunk mattress wardrobe dresser drawers shelf shelves bookcase bookshelf cupboard cupboards cabinet sideboard stool ottoman rug carpet curtains lamp chandelier mirror cushion cushions ikea
home/appliances: appliance appliances fridge refrigerator freezer oven stove cooker hob microwave dishwasher washer washing-machine dryer tumble-dryer kettle toaster blender mixer juicer air-fryer airfryer multicooker coffee-machine vacuum hoover roomba iron boiler heater radiator aircon dehumidifier humidifier thermostat
home/household: household chores housework housekeeping cleaning tidy tidying laundry ironing dishes hoovering vacuuming dusting mopping mop broom sweep cleaner housekeeper maid groceries bins rubbish trash garbage recycling compost repair repairs renovation renovate renovating redecorate decorating decor wallpaper plumber electrician handyman leak mould mold heating electricity utilities plumbing

# ---------------------------------------------------------------- food
food/cooking: cook cooking cooked chef recipe recipes bake baking baker bread roast grill grilled bbq barbecue fry fried boil stew soup salad pasta pizza sushi curry cuisine meal meals breakfast brunch lunch dinner supper snack dessert takeaway takeout restaurant cafe bistro diner canteen cafeteria mcdonalds kfc burger sandwich kebab noodles ramen rice potato potatoes meat chicken beef pork lamb fish seafood vegetables veg veggies fruit cheese egg eggs chocolate cake biscuit biscuits cookie cookies ice-cream icecream groceries grocery supermarket tesco walmart lidl aldi deliveroo doordash ubereats foodie eat ate eaten
food/drinks: drink drinks drinking beverage water juice soda lemonade coke cola pepsi fizzy smoothie milkshake milk alcohol alcoholic beer wine whisky whiskey vodka gin rum cocktail cider champagne prosecco pub bar brewery hangover drunk tipsy drank
food/coffee: coffee espresso latte cappuccino americano mocha macchiato decaf caffeine caffeinated barista starbucks costa coffeeshop grinder cafetiere nespresso tea teas chamomile herbal matcha chai teapot teabag mug cuppa kettle
food/taste: tasty delicious yummy flavour flavor savoury savory spicy bitter sour salty sweet taste

# ---------------------------------------------------------------- appearance
appearance/hair: hair haircut hairstyle hairdresser barber salon fringe bangs bob ponytail braid braids plait curly wavy bald balding blonde blond brunette redhead ginger dye dyed highlights beard bearded moustache mustache stubble shave shaved shaving sideburns dreadlocks perm wig
appearance/body: tall height slim thin skinny chubby plump muscular petite stocky freckles tattoo tattoos tattooed piercing piercings pierced scar mole dimples complexion skin pale tanned tan wrinkles eyesight specs spectacles lenses eyes
appearance/clothes: clothes clothing outfit outfits wear dress dresses skirt jeans trousers pants shirt t-shirt tshirt blouse sweater jumper hoodie cardigan jacket coat uniform shoes sneakers trainers boots heels sandals hat cap scarf gloves socks underwear pyjamas style fashion fashionable stylish wardrobe size makeup lipstick mascara nails manicure pedicure perfume cologne jewellery jewelry earrings necklace bracelet uniqlo zara wore worn
appearance/look: appearance handsome beautiful attractive cute ugly gorgeous lookalike resemble

# ---------------------------------------------------------------- documents
documents/id: document documents documentation paperwork passport passports id identity identification id-card birth-certificate certificate licence license driving-licence permit residence-permit citizenship nationality ssn tax-id biometric expire expired expiry expiration renew renewal embassy consulate apostille notary notarised notarized
documents/visa: visa visas schengen residency immigration asylum refugee sponsor esta
documents/insurance: insurance insured insurer policy coverage health-insurance car-insurance deductible warranty premium

# ---------------------------------------------------------------- events
events/birthdays: birthday birthdays bday celebrate celebration celebrated party parties anniversary jubilee gift gifts invitation invite invited guest guests candles
events/weddings: wedding weddings wed bride groom bridesmaid reception ceremony honeymoon engagement engaged vows registry funeral memorial christening baptism bar-mitzvah bat-mitzvah graduation reunion prom hen-party bachelorette
events/appointments: appointment appointments reservation reschedule rescheduled cancel cancelled canceled postpone postponed reminder slot consultation checkup
events/meetings: meeting meetings meetup conference standup interview deadline workshop webinar seminar summit agenda
events/social: concert festival exhibition gig performance premiere ticket tickets event events occasion gathering dinner-party barbecue picnic

# ---------------------------------------------------------------- weather
weather/conditions: weather forecast sunny sun sunshine rain rainy raining drizzle storm stormy thunder thunderstorm lightning snow snowy snowfall blizzard frost frosty icy hail fog foggy mist misty cloudy overcast wind windy breeze humid humidity heat heatwave hot cold chilly freezing warm mild temperature celsius fahrenheit climate drought flood tornado hurricane typhoon monsoon rainbow umbrella raincoat sleet slush
weather/seasons: season seasons seasonal spring summer autumn winter wintertime summertime springtime solstice equinox

# ---------------------------------------------------------------- religion
religion/faith: religion religious faith god church mosque synagogue temple chapel cathedral pray prayer praying worship mass priest pastor vicar imam rabbi monk nun christian christianity catholic orthodox protestant baptist methodist anglican lutheran evangelical mormon jehovah muslim islam islamic jewish judaism jew hindu hinduism buddhist buddhism sikh sikhism atheist atheism agnostic spiritual spirituality bible quran koran torah gospel sermon congregation parish baptised baptized sabbath shabbat
religion/holidays: holiday christmas xmas easter lent ramadan eid hanukkah chanukah passover diwali holi thanksgiving halloween valentine valentines hogmanay carnival advent pentecost epiphany yom-kippur rosh-hashanah festive santa kwanzaa midsummer
`
